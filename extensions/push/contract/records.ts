/**
 * What the push routes take and answer, and the payload a push carries (other programs read it: the service worker,
 * a phone's notification). Plain schemas: the web app imports them.
 */
import * as Schema from "effect/Schema"
import { SignalKind, SignalPriority } from "../../../actors/being/contract/signal.ts"

/** base64url of a fixed number of bytes, padded or not (the browser's `toJSON()` leaves padding off). */
const base64url = (pattern: RegExp, what: string) =>
  Schema.String.pipe(Schema.filter((text) => pattern.test(text) || what))

/** The node's VAPID public key: an uncompressed P-256 point (65 bytes) in base64url, the browser's applicationServerKey. */
export const PushKey = Schema.Struct({ publicKey: Schema.String })
export type PushKey = typeof PushKey.Type

/** A browser's PushSubscription as `toJSON()` gives it, and an optional name for the device. */
export const SubscribeBody = Schema.Struct({
  endpoint: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2048)),
  keys: Schema.Struct({
    /** The subscription's P-256 public key, uncompressed (RFC 8291). */
    p256dh: base64url(/^B[A-Za-z0-9_-]{86}=?$/, "an uncompressed P-256 public key (65 bytes) in base64url"),
    /** The subscription's authentication secret (RFC 8291). */
    auth: base64url(/^[A-Za-z0-9_-]{22}(==)?$/, "a 16-byte authentication secret in base64url")
  }),
  device: Schema.optionalWith(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(80)), { exact: true }),
  /** What `PushSubscription.toJSON()` adds; ignored. */
  expirationTime: Schema.optionalWith(Schema.NullOr(Schema.Number), { exact: true })
})
export type SubscribeBody = typeof SubscribeBody.Type

/** One subscribed device as its person sees it: no endpoint or key is answered back. */
export const PushSubscription = Schema.Struct({
  id: Schema.String,
  device: Schema.String,
  createdAt: Schema.String
})
export type PushSubscription = typeof PushSubscription.Type

/** What `POST /api/push/test` answers: the signal raised on the caller's own desktop (and so pushed). */
export const PushTestResult = Schema.Struct({ signalId: Schema.String, subscriptions: Schema.Number })
export type PushTestResult = typeof PushTestResult.Type

/**
 * The one payload a push carries, encrypted end to end (RFC 8291): enough to show a notification and open the signal,
 * no body, evidence or other personal text than the title.
 */
export const PushPayload = Schema.Struct({
  type: Schema.Literal("signal"),
  id: Schema.String,
  kind: SignalKind,
  title: Schema.String,
  priority: SignalPriority,
  /** Opens the signal on the desktop (a path on the node). */
  url: Schema.String
})
export type PushPayload = typeof PushPayload.Type

/** Where a pushed signal opens. */
export const signalUrl = (signalId: string) => `/?signal=${encodeURIComponent(signalId)}`

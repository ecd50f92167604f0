/**
 * Sends each delivered signal (the being actor's `SignalDeliveries`, the moment of `signal.created`) to every device
 * its person subscribed: one `aes128gcm` message per subscription, encrypted and VAPID-signed by `web-push`, carried by
 * the node's outbound HTTP (kernel/http/outbound.ts: no redirects, a bounded answer, a deadline). A 404 or 410 deletes
 * the subscription; a 429, a 5xx or no answer is tried again after the push service's Retry-After or a doubling pause,
 * for at most an hour from the first try. The retries live in this process only (docs/decisions.md "Web Push").
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import type * as WebPush from "web-push"
import { lazyModule } from "../../kernel/lazy-module.ts"
import { isIP } from "node:net"
import type { Signal } from "../../actors/being/contract/signal.ts"
import { SignalDeliveries } from "../../actors/being/contract/signal-deliveries.ts"
import { isNonPublic, makeOutbound } from "../../kernel/http/outbound.ts"
import { NodeMetrics } from "../../kernel/metrics.ts"
import { Settings } from "../../kernel/settings.ts"
import { hostVersion } from "../../kernel/version.ts"
import { type PushPayload, signalUrl } from "./contract/records.ts"
import { PushKeys } from "./keys.ts"
import { PushRepository, type Target } from "./repository.ts"
import { PushSettings } from "./settings.ts"

/** Loaded at the first message or the first key pair, not at every start. */
const webPush = lazyModule<typeof WebPush>("web-push")

/** What a push service is told: keep it a day, then drop it (RFC 8030 `TTL`). */
export const PUSH_TTL_SECONDS = 86_400
/** Retries stop this long after the first try. */
export const RETRY_WINDOW_MS = 3_600_000
const FIRST_PAUSE_MS = 30_000
const SEND_TIMEOUT_MS = 10_000
/** A push service answers a few bytes; more is not read. */
const ANSWER_MAX_BYTES = 16_384
/** Messages on the wire at once, across every signal. */
const SENDS_AT_ONCE = 16
/** A VAPID JWT is signed for 12 hours and used for one (RFC 8292 allows 24): one signature per push service an hour. */
const JWT_LIFETIME_S = 12 * 3600
const JWT_REUSE_MS = 3_600_000

export const payloadOf = (signal: Signal): PushPayload => ({
  type: "signal",
  id: signal.id,
  kind: signal.kind,
  title: signal.title,
  priority: signal.priority,
  url: signalUrl(signal.id)
})

export const urgencyOf = (signal: Signal) =>
  signal.priority === "urgent" || signal.priority === "high" ? ("high" as const) : ("normal" as const)

/** Retry-After in seconds or as an HTTP date, as milliseconds from `now`; null when absent or unreadable. */
export const retryAfterMs = (header: string | undefined, now: number): number | null => {
  if (header === undefined || header.trim() === "") return null
  const text = header.trim()
  if (/^\d+$/.test(text)) return Number(text) * 1000
  const at = Date.parse(text)
  return Number.isNaN(at) ? null : Math.max(0, at - now)
}

const isLoopback = (address: string) =>
  isIP(address) === 4 ? address.startsWith("127.") : address === "::1" || address === "::ffff:127.0.0.1"

type Outcome = "sent" | "gone" | "rejected" | "retried" | "expired"

export const makeSender = Effect.gen(function* () {
  const settings = yield* PushSettings
  const node = yield* Settings
  const repository = yield* PushRepository
  const keys = yield* PushKeys
  const deliveries = yield* SignalDeliveries
  const metrics = yield* NodeMetrics
  const counted = metrics.counter({
    name: "pos_push_messages_total",
    help: "Web Push messages by outcome: sent, gone (404/410, subscription deleted), rejected, retried, expired.",
    labelNames: ["outcome"]
  })
  const count = (outcome: Outcome) => Effect.sync(() => counted.inc({ outcome }))
  const outbound = makeOutbound({
    allowPrivate: false,
    userAgent: `svc-node/${hostVersion}`,
    ...(settings.pushAllowLoopback
      ? { refuses: (address: string) => isNonPublic(address) && !isLoopback(address) }
      : {})
  })
  const publicUrl = Option.getOrElse(node.publicUrl, () => "")
  /** PUSH_CONTACT, else the node's public URL when https, else a mailto: naming the node's own host. */
  const subject = Option.getOrElse(settings.pushContact, () =>
    publicUrl.startsWith("https://") ? publicUrl : `mailto:push@${node.host === "0.0.0.0" ? "localhost" : node.host}`
  )
  const jwts = new Map<string, { readonly authorization: string; readonly until: number }>()
  /** The Authorization of a message to `endpoint`'s push service: its origin's JWT, signed again once an hour. */
  const authorizationFor = (endpoint: string, pair: { publicKey: string; privateKey: Redacted.Redacted<string> }) =>
    Effect.map(Clock.currentTimeMillis, (now) => {
      const audience = new URL(endpoint).origin
      const kept = jwts.get(audience)
      if (kept !== undefined && kept.until > now) return kept.authorization
      const { Authorization } = webPush().getVapidHeaders(
        audience,
        subject,
        pair.publicKey,
        Redacted.value(pair.privateKey),
        "aes128gcm",
        Math.floor(now / 1000) + JWT_LIFETIME_S
      )
      jwts.set(audience, { authorization: Authorization, until: now + JWT_REUSE_MS })
      return Authorization
    })
  const gate = yield* Effect.makeSemaphore(SENDS_AT_ONCE)
  const retries = yield* FiberSet.make()

  const exchange = (target: Target, signal: Signal) =>
    Effect.gen(function* () {
      const pair = yield* Effect.orDie(keys.pair)
      const authorization = yield* authorizationFor(target.endpoint, pair)
      const details = webPush().generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        JSON.stringify(payloadOf(signal)),
        {
          // Signed above, once per push service and hour (no vapidDetails: web-push would sign one per message).
          headers: { Authorization: authorization },
          TTL: PUSH_TTL_SECONDS,
          urgency: urgencyOf(signal),
          topic: signal.id,
          contentEncoding: "aes128gcm"
        }
      )
      const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]))
      return yield* Effect.tryPromise((abort) =>
        outbound({
          url: details.endpoint,
          method: "POST",
          headers,
          body: details.body === null ? new Uint8Array(0) : new Uint8Array(details.body),
          maxRedirects: 0,
          maxBytes: ANSWER_MAX_BYTES,
          timeoutMs: SEND_TIMEOUT_MS,
          signal: abort
        })
      )
    })

  /** One try; a failure worth another is scheduled here, so the caller never waits on a pause. */
  const attempt = (target: Target, signal: Signal, tries: number, firstAt: number): Effect.Effect<void> =>
    Effect.gen(function* () {
      const answer = yield* gate.withPermits(1)(Effect.either(exchange(target, signal)))
      const status = answer._tag === "Right" ? answer.right.status : null
      if (status !== null && status >= 200 && status < 300) return yield* count("sent")
      if (status === 404 || status === 410) {
        yield* repository.forget(target.id)
        return yield* count("gone")
      }
      if (status !== null && status !== 429 && status < 500) {
        yield* Effect.logWarning(`A push service refused a message for subscription ${target.id} with ${status}.`)
        return yield* count("rejected")
      }
      const now = yield* Clock.currentTimeMillis
      const asked = answer._tag === "Right" ? retryAfterMs(answer.right.headers["retry-after"], now) : null
      const pause = asked ?? FIRST_PAUSE_MS * 2 ** tries
      if (now + pause - firstAt > RETRY_WINDOW_MS) return yield* count("expired")
      yield* count("retried")
      yield* FiberSet.run(
        retries,
        Effect.sleep(pause).pipe(
          Effect.zipRight(repository.target(target.id)),
          // A device removed meanwhile gets nothing; one subscribed again gets its newest keys.
          Effect.flatMap(
            Option.match({ onNone: () => Effect.void, onSome: (now) => attempt(now, signal, tries + 1, firstAt) })
          )
        )
      )
    }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("A push could not be sent", cause)))

  /** Every subscription of the signal's person, each on its own fiber. */
  const pushSignal = (signal: Signal) =>
    Effect.gen(function* () {
      if (!(yield* keys.configured)) return
      const targets = yield* repository.targets(signal.beingId)
      const firstAt = yield* Clock.currentTimeMillis
      yield* Effect.forEach(targets, (target) => attempt(target, signal, 0, firstAt), {
        concurrency: SENDS_AT_ONCE,
        discard: true
      })
    })

  const queue = yield* Queue.unbounded<Signal>()
  yield* deliveries.listen((signal) => Queue.offer(queue, signal))
  yield* Effect.forkScoped(
    Effect.forever(Effect.flatMap(Queue.take(queue), (signal) => FiberSet.run(retries, pushSignal(signal))))
  )
})

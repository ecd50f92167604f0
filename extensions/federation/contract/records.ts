/**
 * The federation's records as the second document names them (Peer, PeerSession,
 * FederatedMessage) and the request shapes of the owner's peer routes. Plain schemas only.
 */
import * as Schema from "effect/Schema"
import { Did, DocumentCheck } from "./wire.ts"

export const PeerStatus = Schema.Literal("unverified", "verified", "unreachable", "refused", "blocked")
export type PeerStatus = typeof PeerStatus.Type

/** label, profile, software and serves are advisory copies of what the peer claimed in its descriptor. */
export const Peer = Schema.Struct({
  nodeDid: Schema.String,
  endpoint: Schema.String,
  name: Schema.String,
  status: PeerStatus,
  label: Schema.NullOr(Schema.String),
  profile: Schema.NullOr(Schema.String),
  software: Schema.NullOr(Schema.String),
  serves: Schema.Array(Schema.String),
  addedAt: Schema.String,
  verifiedAt: Schema.NullOr(Schema.String),
  lastSeenAt: Schema.NullOr(Schema.String),
  collectedAt: Schema.NullOr(Schema.String),
  relay: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  /** Whether this node's square posts go to the peer (PATCH `publish`; default off). */
  publish: Schema.Boolean
})
export type Peer = typeof Peer.Type

export const PeerSession = Schema.Struct({
  peer: Peer,
  verified: Schema.Boolean,
  reason: Schema.String,
  check: Schema.NullOr(DocumentCheck),
  skewSeconds: Schema.NullOr(Schema.Number),
  at: Schema.String
})
export type PeerSession = typeof PeerSession.Type

/** An http(s) URL, the owner's own choice of where a peer (or its relay) is reached. */
export const Endpoint = Schema.String.pipe(
  Schema.maxLength(2048),
  Schema.filter((url) => (URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol)) || "an http or https URL")
)

export const AddPeer = Schema.Struct({
  nodeDid: Did,
  endpoint: Endpoint,
  name: Schema.optional(Schema.String.pipe(Schema.maxLength(80))),
  relay: Schema.optional(Schema.NullOr(Endpoint))
})

export const PeerUpdate = Schema.Struct({
  endpoint: Schema.optional(Endpoint),
  name: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(80))),
  blocked: Schema.optional(Schema.Boolean),
  publish: Schema.optional(Schema.Boolean),
  relay: Schema.optional(Schema.NullOr(Endpoint))
})
export type PeerUpdate = typeof PeerUpdate.Type

export const PeerPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })

export const PeerRemoved = Schema.Struct({ nodeDid: Schema.String, removed: Schema.Boolean, threadsAffected: Schema.Int })

export const MessageDirection = Schema.Literal("in", "out")
export const MessageKind = Schema.Literal("message", "post", "retraction")
export const MessageState = Schema.Literal("queued", "sending", "delivered", "refused", "stuck", "received")

/** One row per (document, peer). */
export const FederatedMessage = Schema.Struct({
  id: Schema.String,
  direction: MessageDirection,
  kind: MessageKind,
  threadId: Schema.NullOr(Schema.String),
  messageId: Schema.String,
  peerDid: Schema.String,
  authorDid: Schema.String,
  audienceDid: Schema.String,
  digest: Schema.String,
  sealed: Schema.Boolean,
  state: MessageState,
  attempts: Schema.Int,
  nextAttemptAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  verified: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String
})
export type FederatedMessage = typeof FederatedMessage.Type

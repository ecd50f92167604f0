/**
 * The federation's records as the second document names them (Peer, PeerSession,
 * FederatedMessage) and the request shapes of the owner's peer routes. Plain schemas only.
 */
import * as Schema from "effect/Schema"
import { PageParams } from "../../../kernel/contract/page.ts"
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
  Schema.filter(
    (url) => (URL.canParse(url) && ["http:", "https:"].includes(new URL(url).protocol)) || "an http or https URL"
  )
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

export const PeerRemoved = Schema.Struct({
  nodeDid: Schema.String,
  removed: Schema.Boolean,
  threadsAffected: Schema.Int
})

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

/**
 * A conversation with a being on a peer node. Its local half is an ordinary direct thread whose
 * only participant here is `localBeingId` (the remote being has no being row on this node).
 * `remoteCurrent`: the peer is still one the owner has and has not blocked, so a message can
 * still leave; `queued` and `stuck` count the thread's outbound rows in those states.
 */
export const FederatedConversation = Schema.Struct({
  threadId: Schema.String,
  peerDid: Schema.String,
  peerName: Schema.NullOr(Schema.String),
  remoteDid: Schema.String,
  remoteCurrent: Schema.Boolean,
  remoteHandle: Schema.NullOr(Schema.String),
  petname: Schema.NullOr(Schema.String),
  localBeingId: Schema.String,
  queued: Schema.Int,
  stuck: Schema.Int,
  createdAt: Schema.String
})
export type FederatedConversation = typeof FederatedConversation.Type

export const NewConversation = Schema.Struct({
  peerDid: Did,
  remoteDid: Did,
  petname: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(80)))
})
export type NewConversation = typeof NewConversation.Type

/** Where one message of a conversation's thread came from (or went), beside its wire row. */
export const MessageProvenance = Schema.Struct({
  /** The message's id in the local thread. */
  messageId: Schema.String,
  direction: MessageDirection,
  authorDid: Schema.String,
  digest: Schema.String,
  sealed: Schema.Boolean,
  verified: Schema.Boolean,
  state: MessageState,
  at: Schema.String
})
export type MessageProvenance = typeof MessageProvenance.Type

export const FederatedThread = Schema.Struct({
  conversation: FederatedConversation,
  messages: Schema.Array(MessageProvenance),
  wire: Schema.Array(FederatedMessage)
})
export type FederatedThread = typeof FederatedThread.Type

/** A local thread id in the path (the same bound as a peer's did). */
export const ThreadIdPath = PeerPath

export const OutboxParams = Schema.Struct({ kind: Schema.optional(MessageKind), ...PageParams.fields })

/** One pass of the courier over the due outbound rows. */
export const CourierRun = Schema.Struct({
  attempted: Schema.Int,
  delivered: Schema.Int,
  /** Rows whose peer did not answer this time (tried again later, or given up on: `stuck`). */
  unreachable: Schema.Int,
  /** Rows the peer refused with a receipt (or never sent: a peer too old for protocol 2). */
  refused: Schema.Int,
  at: Schema.String
})
export type CourierRun = typeof CourierRun.Type

export const FlushResult = Schema.Struct({
  ...CourierRun.fields,
  /** Exhausted (stuck) rows put back in the queue before the run. */
  requeued: Schema.Int,
  collected: Schema.Int,
  relayed: Schema.Int
})
export type FlushResult = typeof FlushResult.Type

/**
 * Where this node stands with a directory (`GET /api/directory/status`). Registering is a later
 * issue: until then `configured` says only whether `DIRECTORY_ENDPOINT` is set, and the rest
 * stays empty (`lastError` says registering is not built when an endpoint is set).
 */
export const DirectoryStatus = Schema.Struct({
  configured: Schema.Boolean,
  endpoint: Schema.NullOr(Schema.String),
  /** The directory's did, pinned on its first successful answer. */
  directoryDid: Schema.NullOr(Schema.String),
  nodeDid: Schema.String,
  registered: Schema.Boolean,
  advertisedEndpoint: Schema.NullOr(Schema.String),
  handles: Schema.Array(Schema.String),
  registeredAt: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String),
  creditsClaimed: Schema.Int
})
export type DirectoryStatus = typeof DirectoryStatus.Type

/** The caller's own federated identity (`GET /api/federation/me`): its did, and the node's. */
export const OwnIdentity = Schema.Struct({
  beingId: Schema.String,
  handle: Schema.String,
  did: Schema.String,
  nodeDid: Schema.String
})
export type OwnIdentity = typeof OwnIdentity.Type

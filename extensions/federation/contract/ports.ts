/**
 * The federation's ports, as tags other homes call or bind (browser-safe: types and tags only).
 * - PeerTransport: posting a document to a peer; the host binds it to the node's outbound HTTP.
 * - Handshake: this node's side of a handshake (the hello it sends and the check of the answer);
 *   bound to the node's key in extensions/federation, called by the peer actor.
 * - PeerDirectory: what the wire routes may know of the owner's peers; bound to the peer actor's
 *   table by the peer (actors/peer/peer-directory.ts).
 * - NodeAddress: where this node says it is, and what it runs as.
 * - ConversationThreads: a conversation's local half, an ordinary direct thread; bound to the
 *   threads' tables by the threads (extensions/threads/conversation-threads.ts), provided by the node.
 * - SquareArrivals: peers' square posts landing in this node's square; bound to the square's
 *   tables by the host.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Page } from "../../../kernel/contract/page.ts"
import type { Post } from "../../souls/contract/records.ts"
import type { Message } from "../../threads/contract/records.ts"
import type { Peer } from "./records.ts"
import type { DocumentCheck, PeerHello, SignedChallenge } from "./wire.ts"

/** A peer could not be reached or did not answer with JSON: the words say which. */
export class PeerUnreachable extends Data.TaggedError("PeerUnreachable")<{ readonly reason: string }> {}

export interface PeerTransportShape {
  /** Posts JSON to `<endpoint><path>`; answers the status and the parsed JSON body. */
  readonly post: (
    endpoint: string,
    path: string,
    body: unknown
  ) => Effect.Effect<{ readonly status: number; readonly json: unknown }, PeerUnreachable>
  /** Reads JSON from `<endpoint><path>` (a relay's capability profile). */
  readonly get: (
    endpoint: string,
    path: string
  ) => Effect.Effect<{ readonly status: number; readonly json: unknown }, PeerUnreachable>
}

export class PeerTransport extends Context.Tag("federation/PeerTransport")<PeerTransport, PeerTransportShape>() {}

/** What checking a peer's greeting found. `claims` are the peer's advisory fields, when its documents held. */
export interface GreetingCheck {
  readonly verified: boolean
  /** Whether the peer said it accepted us (false: it refused, or did not answer as a node). */
  readonly accepted: boolean
  readonly reason: string
  readonly check: DocumentCheck | null
  readonly skewSeconds: number | null
  readonly claims: {
    readonly label: string
    readonly profile: string
    readonly software: string
    readonly serves: ReadonlyArray<string>
  } | null
}

export interface HandshakeShape {
  /** A hello to the node `peerDid`, and the challenge in it that the answer must attest. */
  readonly hello: (peerDid: string) => Effect.Effect<{ readonly hello: PeerHello; readonly challenge: SignedChallenge }>
  readonly checkGreeting: (input: {
    readonly greeting: unknown
    readonly peerDid: string
    readonly challenge: SignedChallenge
    /** When the answer came, in epoch milliseconds. */
    readonly at: number
  }) => Effect.Effect<GreetingCheck>
}

export class Handshake extends Context.Tag("federation/Handshake")<Handshake, HandshakeShape>() {}

export interface PeerDirectoryShape {
  /** Every peer, oldest first: for the node's own rounds (the collector, publishing a post), never a route. */
  readonly list: Effect.Effect<ReadonlyArray<Peer>>
  /** A page of the peers, oldest first. */
  readonly page: (page: Page) => Effect.Effect<ReadonlyArray<Peer>>
  readonly find: (nodeDid: string) => Effect.Effect<Option.Option<Peer>>
  /** The peers of these dids that are there, in one read, in no particular order. */
  readonly findMany: (nodeDids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Peer>>
  /** The peer proved its key just now (a hello, a delivery): its lastSeenAt, nothing else. */
  readonly seen: (nodeDid: string, at: string) => Effect.Effect<void>
  /** The peer collected from this node just now: its collectedAt, nothing else (its status stays). */
  readonly collected: (nodeDid: string, at: string) => Effect.Effect<void>
  /** The courier gave up on it (about two days without an answer): the peer is unreachable, not in error. */
  readonly unreachable: (nodeDid: string, reason: string) => Effect.Effect<void>
}

export class PeerDirectory extends Context.Tag("federation/PeerDirectory")<PeerDirectory, PeerDirectoryShape>() {}

export class NodeAddress extends Context.Tag("federation/NodeAddress")<
  NodeAddress,
  { readonly endpoint: string; readonly label: string; readonly software: string }
>() {}

export interface ConversationThreadsShape {
  /** A new direct thread whose one participant on this node is the being; answers its id. */
  readonly open: (beingId: string, title: string) => Effect.Effect<string>
  /**
   * Stores a remote being's message in the thread (its `authorId` is the remote did: that being
   * has no row here) and answers it; the caller tells the thread's followers once it committed.
   */
  readonly insert: (input: {
    readonly threadId: string
    readonly authorDid: string
    readonly content: string
  }) => Effect.Effect<Message>
}

export class ConversationThreads extends Context.Tag("federation/ConversationThreads")<
  ConversationThreads,
  ConversationThreadsShape
>() {}

/** A peer's square post as deliver read it: who sent it, who wrote it, what it says. */
export interface ArrivingPost {
  readonly peerDid: string
  readonly peerName: string | null
  readonly authorDid: string
  readonly authorName: string
  /** The post's id on its author's node. */
  readonly remoteId: string
  readonly content: string
}

export interface SquareArrivalsShape {
  /** Stores the post in this node's square; None when it is there already. The caller announces it once committed. */
  readonly arrive: (post: ArrivingPost) => Effect.Effect<Option.Option<Post>>
  /** Removes the post its author took back; answers its id here, None when it was not here. */
  readonly retract: (input: {
    readonly peerDid: string
    readonly authorDid: string
    readonly remoteId: string
  }) => Effect.Effect<Option.Option<string>>
}

export class SquareArrivals extends Context.Tag("federation/SquareArrivals")<SquareArrivals, SquareArrivalsShape>() {}

/**
 * Who may follow a topic of the live channel. A topic is `<kind>:<id>`; the feature that owns a
 * kind (threads own `thread`) registers a check for it, and the live channel asks that check on
 * every subscribe. A kind nobody registered is refused as unknown; a check that says no is refused
 * without saying whether the thing exists, so a topic cannot be used to probe for ids.
 *
 * A kind may also keep a replay of what its topics carry (a thread's streaming reply): the channel
 * hands it every event it delivers on such a topic and, the moment a socket starts following one,
 * sends that socket the replay's catch-up. Both calls are synchronous, in the same turn as the
 * delivery and the follow, so a late subscriber gets everything exactly once.
 *
 * The tag is here so features register through it without reaching the host; the registry is the
 * host's (host/live/topics.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { BusEvent } from "../contract/events.ts"

/** May this being follow the topic `<kind>:<id>`? */
export type TopicCheck = (beingId: string, id: string) => Effect.Effect<boolean>

/** What a topic kind keeps of its topics' events, by the id after the colon. */
export interface TopicReplay {
  readonly delivered: (id: string, event: BusEvent) => void
  readonly catchUp: (id: string) => ReadonlyArray<BusEvent>
}

/** Why a subscribe is refused (codes of the live channel's protocol, host/live/contract/protocol.ts). */
export interface TopicRefusal {
  readonly error: "unknown_topic" | "topic_refused"
  readonly message: string
}

export interface TopicAccessShape {
  /** Claims a topic kind; a kind claimed twice is a programming error (a defect). */
  readonly register: (kind: string, check: TopicCheck, replay?: TopicReplay) => Effect.Effect<void>
  /**
   * Null when the being may follow the topic, else why not. Waits until every kind is claimed: the node listens (and
   * takes sockets) before its features are up, and a kind not claimed yet is not an unknown one.
   */
  readonly check: (beingId: string, topic: string) => Effect.Effect<TopicRefusal | null>
  /** Every feature is up, so every kind it claims is claimed (the node's serving layer says so, built last). */
  readonly allClaimed: Effect.Effect<void>
  /** An event was delivered on the topic. */
  readonly delivered: (topic: string, event: BusEvent) => void
  /** What a socket that starts following the topic now is sent first. */
  readonly catchUp: (topic: string) => ReadonlyArray<BusEvent>
}

export class TopicAccess extends Context.Tag("kernel/TopicAccess")<TopicAccess, TopicAccessShape>() {}

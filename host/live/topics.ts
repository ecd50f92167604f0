/**
 * Who may follow a topic. A topic is `<kind>:<id>`; the feature that owns a kind (threads own
 * `thread`) registers a check for it, and the live channel asks that check on every subscribe.
 * A kind nobody registered is refused as unknown; a check that says no is refused without
 * saying whether the thing exists, so a topic cannot be used to probe for ids.
 *
 * A kind may also keep a replay of what its topics carry (a thread's streaming reply): the channel
 * hands it every event it delivers on such a topic and, the moment a socket starts following one,
 * sends that socket the replay's catch-up. Both calls are synchronous, in the same turn as the
 * delivery and the follow, so a late subscriber gets everything exactly once.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { NodeEvent } from "../contract/events.ts"
import type { LiveErrorCode } from "./contract/protocol.ts"

/** May this being follow the topic `<kind>:<id>`? */
export type TopicCheck = (beingId: string, id: string) => Effect.Effect<boolean>

/** What a topic kind keeps of its topics' events, by the id after the colon. */
export interface TopicReplay {
  readonly delivered: (id: string, event: NodeEvent) => void
  readonly catchUp: (id: string) => ReadonlyArray<NodeEvent>
}

export interface TopicRefusal {
  readonly error: Extract<LiveErrorCode, "unknown_topic" | "topic_refused">
  readonly message: string
}

export interface TopicAccessShape {
  /** Claims a topic kind; a kind claimed twice is a programming error (a defect). */
  readonly register: (kind: string, check: TopicCheck, replay?: TopicReplay) => Effect.Effect<void>
  /** Null when the being may follow the topic, else why not. */
  readonly check: (beingId: string, topic: string) => Effect.Effect<TopicRefusal | null>
  /** An event was delivered on the topic. */
  readonly delivered: (topic: string, event: NodeEvent) => void
  /** What a socket that starts following the topic now is sent first. */
  readonly catchUp: (topic: string) => ReadonlyArray<NodeEvent>
}

const split = (topic: string) => {
  const colon = topic.indexOf(":")
  return { kind: colon > 0 ? topic.slice(0, colon) : "", id: topic.slice(colon + 1) }
}

export class TopicAccess extends Context.Tag("host/TopicAccess")<TopicAccess, TopicAccessShape>() {
  static readonly layer = Layer.sync(TopicAccess, () => {
    const checks = new Map<string, TopicCheck>()
    const replays = new Map<string, TopicReplay>()
    return {
      register: (kind, check, replay) =>
        Effect.suspend(() => {
          if (checks.has(kind)) return Effect.dieMessage(`the topic kind "${kind}" is registered twice`)
          checks.set(kind, check)
          if (replay !== undefined) replays.set(kind, replay)
          return Effect.void
        }),
      delivered: (topic, event) => {
        const { kind, id } = split(topic)
        replays.get(kind)?.delivered(id, event)
      },
      catchUp: (topic) => {
        const { kind, id } = split(topic)
        return replays.get(kind)?.catchUp(id) ?? []
      },
      check: (beingId, topic) =>
        Effect.suspend(() => {
          const colon = topic.indexOf(":")
          const kind = topic.slice(0, colon)
          const check = colon > 0 ? checks.get(kind) : undefined
          if (check === undefined) {
            return Effect.succeed<TopicRefusal>({ error: "unknown_topic", message: `This node has no topics of the kind "${kind}".` })
          }
          return Effect.map(check(beingId, topic.slice(colon + 1)), (allowed) =>
            allowed ? null : { error: "topic_refused", message: "You cannot follow that topic." } as const
          )
        })
    }
  })
}

/**
 * Who may follow a topic. A topic is `<kind>:<id>`; the feature that owns a kind (threads own
 * `thread`) registers a check for it, and the live channel asks that check on every subscribe.
 * A kind nobody registered is refused as unknown; a check that says no is refused without
 * saying whether the thing exists, so a topic cannot be used to probe for ids.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { LiveErrorCode } from "./contract/protocol.ts"

/** May this being follow the topic `<kind>:<id>`? */
export type TopicCheck = (beingId: string, id: string) => Effect.Effect<boolean>

export interface TopicRefusal {
  readonly error: Extract<LiveErrorCode, "unknown_topic" | "topic_refused">
  readonly message: string
}

export interface TopicAccessShape {
  /** Claims a topic kind; a kind claimed twice is a programming error (a defect). */
  readonly register: (kind: string, check: TopicCheck) => Effect.Effect<void>
  /** Null when the being may follow the topic, else why not. */
  readonly check: (beingId: string, topic: string) => Effect.Effect<TopicRefusal | null>
}

export class TopicAccess extends Context.Tag("host/TopicAccess")<TopicAccess, TopicAccessShape>() {
  static readonly layer = Layer.sync(TopicAccess, () => {
    const checks = new Map<string, TopicCheck>()
    return {
      register: (kind, check) =>
        Effect.suspend(() => {
          if (checks.has(kind)) return Effect.dieMessage(`the topic kind "${kind}" is registered twice`)
          checks.set(kind, check)
          return Effect.void
        }),
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

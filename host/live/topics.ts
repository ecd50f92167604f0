/**
 * The registry of topic kinds behind the kernel's `TopicAccess` (kernel/live/topic-access.ts says
 * what a check and a replay are).
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import { TopicAccess, type TopicCheck, type TopicRefusal, type TopicReplay } from "../../kernel/live/topic-access.ts"
import type { LiveErrorCode } from "./contract/protocol.ts"

// The kernel names the refusal codes; they must stay codes of the live protocol.
const refusalIsLiveCode: TopicRefusal["error"] extends LiveErrorCode ? true : false = true
void refusalIsLiveCode

const split = (topic: string) => {
  const colon = topic.indexOf(":")
  return { kind: colon > 0 ? topic.slice(0, colon) : "", id: topic.slice(colon + 1) }
}

export const TopicAccessLive = Layer.sync(TopicAccess, () => {
  const checks = new Map<string, TopicCheck>()
  const replays = new Map<string, TopicReplay>()
  // Opened once every feature is up: a socket that subscribes while the node still starts waits for it.
  const claimed = Deferred.unsafeMake<void>(FiberId.none)

  const checkNow = (beingId: string, topic: string) =>
    Effect.suspend(() => {
      const colon = topic.indexOf(":")
      const kind = topic.slice(0, colon)
      const check = colon > 0 ? checks.get(kind) : undefined
      if (check === undefined) {
        return Effect.succeed<TopicRefusal>({
          error: "unknown_topic",
          message: `This node has no topics of the kind "${kind}".`
        })
      }
      return Effect.map(check(beingId, topic.slice(colon + 1)), (allowed) =>
        allowed ? null : ({ error: "topic_refused", message: "You cannot follow that topic." } as const)
      )
    })

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
    check: (beingId, topic) => Effect.zipRight(Deferred.await(claimed), checkNow(beingId, topic)),
    allClaimed: Effect.asVoid(Deferred.succeed(claimed, undefined))
  }
})

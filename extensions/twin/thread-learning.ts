/** The threads' ThreadLearning port bound to the twin's learning queue: a message is queued by its id. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Message } from "../threads/contract/records.ts"
import { ThreadLearning } from "../threads/contract/ports.ts"
import { LearningQueue } from "./learning-queue.ts"

export const ThreadLearningLive = Layer.effect(
  ThreadLearning,
  Effect.map(LearningQueue, (queue) => ({
    heard: (beingId: string, source: "thread" | "chat", message: Message) =>
      Effect.asVoid(queue.enqueue(beingId, source, message.id, message.content))
  }))
).pipe(Layer.provide(LearningQueue.Default))

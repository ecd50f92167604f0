/**
 * Where the twin's sources leave text for the learning loop (learning-loop.ts): a Muse thread's
 * message, a chat-bridge message, a synced mail, an indexed file. A writer only queues (never
 * calls a model inline), and only while the being's switch for that source is on; switching one
 * off drops what it left queued. Each piece is bounded, and queued once per reference.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as SqlClient from "@effect/sql/SqlClient"
import { nowIso } from "../../kernel/time.ts"
import {
  defaultLearningSources,
  learningSources,
  type LearningSource,
  type LearningState,
  type LearningUpdate
} from "./contract/learning.ts"
import { LearningRepository } from "./repositories/learning-repository.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

/** The most of one message, mail or file a pass reads. */
export const MAX_QUEUED_CHARS = 8000

export class LearningQueue extends Effect.Service<LearningQueue>()("twin/LearningQueue", {
  dependencies: [LearningRepository.Default],
  effect: Effect.gen(function* () {
    const repository = yield* LearningRepository
    const sql = yield* SqlClient.SqlClient

    const sources = (beingId: string) =>
      Effect.map(
        repository.findSources(beingId),
        Option.getOrElse(() => defaultLearningSources)
      )

    /** Queues the being's own text from `source`, unless that source is switched off or the text is blank. */
    const enqueue = fnNamed("twin.enqueueLearning")(function* (
      beingId: string,
      source: LearningSource,
      reference: string,
      text: string
    ) {
      const trimmed = text.trim()
      if (trimmed === "" || !(yield* sources(beingId))[source]) return false
      yield* repository.enqueue({
        beingId,
        source,
        reference: reference.slice(0, 400),
        text: trimmed.slice(0, MAX_QUEUED_CHARS),
        enqueuedAt: yield* nowIso
      })
      return true
    })

    const state = (beingId: string) =>
      Effect.all({ sources: sources(beingId), queued: repository.count(beingId) }).pipe(spanNamed("twin.learningState"))

    /** Sets the switches given; a source switched off loses what it had queued, in the same transaction. */
    const update = (beingId: string, { sources: changed }: LearningUpdate) =>
      Effect.gen(function* () {
        const next = { ...(yield* sources(beingId)), ...changed }
        yield* repository.saveSources({ beingId, sources: next, updatedAt: yield* nowIso })
        for (const source of learningSources) {
          if (!next[source]) yield* repository.drop({ beingId, source })
        }
        return { sources: next, queued: yield* repository.count(beingId) } satisfies LearningState
      }).pipe(sql.withTransaction, Effect.orDie, spanNamed("twin.updateLearning"))

    return { enqueue, sources, state, update } as const
  })
}) {}

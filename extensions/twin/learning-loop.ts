/**
 * The learning loop: every TWIN_LEARN_INTERVAL_MS (on Effect's Clock, so TestClock drives it in
 * tests) it reads what the sources queued (learning-queue.ts) and learns from it through
 * `Learning.learn`: the cheap tier, near-duplicates skipped, one `learned` activity naming the
 * source and `memory.created` per memory stored. Per being and source, a batch joins the oldest
 * queued pieces up to LEARN_BATCH_CHARS into one text; its rows are deleted only once the call
 * succeeded. A failed call leaves them for a later pass, each failure doubling the wait, and
 * after MOST_ATTEMPTS the rows are given up (logged), so a text the model always refuses cannot
 * spend on every pass forever. With no cheap tier bound the loop reads nothing and says nothing.
 * Each pass's count of batches learned is published to `passes`, which is how a test waits for one.
 */
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import { runSingleton } from "../../kernel/actors/singletons.ts"
import { isoIn, nowIso } from "../../kernel/time.ts"
import type { LearningSource } from "./contract/learning.ts"
import { Learning } from "./learning.ts"
import { LearningQueue } from "./learning-queue.ts"
import { TwinBindings } from "./ports.ts"
import { LearningRepository, type Pending } from "./repositories/learning-repository.ts"
import { TwinSettings } from "./settings.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** Characters of queued text in one call: a few messages or one file, well inside LearnRequest's 20,000. */
export const LEARN_BATCH_CHARS = 12_000
/** Batches of one being's source in one pass; what is left waits for the next. */
export const MOST_BATCHES_PER_PASS = 10
/** Failed calls a queued piece survives before it is given up. */
export const MOST_ATTEMPTS = 5
/** The longest wait between two attempts at the same piece. */
const LONGEST_BACKOFF_MS = 6 * 60 * 60 * 1000

const separator = "\n\n---\n\n"

/** The oldest pieces that fit the budget together (always the first: each is at most 8,000 characters). */
const batchOf = (rows: ReadonlyArray<Pending>) => {
  const taken: Array<Pending> = []
  let size = 0
  for (const row of rows) {
    const added = row.text.length + (taken.length === 0 ? 0 : separator.length)
    if (taken.length > 0 && size + added > LEARN_BATCH_CHARS) break
    taken.push(row)
    size += added
  }
  return taken
}

/** What the `learned` activity ("Learned 2 memories from Muse threads") and each memory's source call a queue. */
export const learnedFrom: Record<LearningSource, string> = {
  thread: "Muse threads",
  chat: "the chat bridge",
  mail: "mail",
  file: "files"
}

export class LearningLoop extends Effect.Service<LearningLoop>()("twin/LearningLoop", {
  dependencies: [Learning.Default, LearningQueue.Default, LearningRepository.Default],
  scoped: Effect.gen(function* () {
    const learning = yield* Learning
    const repository = yield* LearningRepository
    const bindings = yield* TwinBindings
    const settings = yield* TwinSettings
    const passes = yield* Effect.acquireRelease(PubSub.unbounded<number>(), PubSub.shutdown)

    /**
     * One batch of the being's source: true when it learned (and more may wait), false when nothing was due or the call
     * failed.
     */
    const batch = (beingId: string, source: LearningSource) =>
      Effect.gen(function* () {
        const rows = batchOf(yield* repository.pending({ beingId, source, now: yield* nowIso, limit: 64 }))
        if (rows.length === 0) return false
        const references = rows.map((row) => row.reference)
        const learned = yield* learning
          .learn(beingId, { text: rows.map((row) => row.text).join(separator), source: learnedFrom[source] })
          .pipe(
            Effect.as(true),
            Effect.catchAll((error) =>
              Effect.as(Effect.logWarning(`The twin could not learn from a ${source} batch: ${error.message}`), false)
            )
          )
        if (learned) {
          yield* repository.consume({ beingId, source, references })
          return true
        }
        const attempts = Math.max(...rows.map((row) => row.attempts)) + 1
        if (attempts >= MOST_ATTEMPTS) {
          yield* Effect.logWarning(
            `The twin gave up learning ${rows.length} queued ${source} pieces after ${attempts} failed calls`
          )
          yield* repository.consume({ beingId, source, references })
        } else {
          const wait = Math.min(settings.learnIntervalMs * 2 ** attempts, LONGEST_BACKOFF_MS)
          yield* repository.postpone({ beingId, source, references, retryAt: yield* isoIn(wait) })
        }
        return false
      }).pipe(spanNamed("twin.learnBatch", { attributes: { source } }))

    /**
     * Every due being and source, batch after batch until its queue is empty, a call fails or the pass's share is
     * spent.
     */
    const pass = Effect.gen(function* () {
      if (!bindings.cheapAvailable) return 0
      let learned = 0
      for (const { beingId, source } of yield* repository.due(yield* nowIso)) {
        for (let round = 0; round < MOST_BATCHES_PER_PASS; round++) {
          if (!(yield* batch(beingId, source))) break
          learned++
        }
      }
      return learned
    }).pipe(spanNamed("twin.learningPass"))

    const tick = pass.pipe(
      Effect.tap((count) => PubSub.publish(passes, count)),
      Effect.catchAllCause((cause) => Effect.logError("The learning pass failed", cause))
    )
    // Once across the cluster: the queue is in the shared database (docs/decisions.md "Timers in a cluster").
    yield* runSingleton("twin.learning", Effect.forever(Effect.zipRight(Effect.sleep(settings.learnIntervalMs), tick)))

    return { pass, passes: PubSub.subscribe(passes) } as const
  })
}) {}

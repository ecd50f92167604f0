/**
 * The embedding backfill: every MEMORY_BACKFILL_INTERVAL_MS (on Effect's Clock, so TestClock
 * drives it in tests) it embeds the memories stored while the embed tier was unbound or down,
 * batch by batch until none is left or a call fails, then waits for the next tick. A model
 * swapped for another in the settings is caught up the same way (its vectors are the missing
 * ones). Each pass's count is published to `passes`, which is how a test waits for one.
 */
import * as Effect from "effect/Effect"
import * as PubSub from "effect/PubSub"
import { Memories } from "./memories.ts"
import { TwinSettings } from "./settings.ts"
import { runSingleton } from "../../kernel/actors/singletons.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** One embed call's inputs: small enough for any local server's batch. */
export const backfillBatchSize = 32

export class MemoryBackfill extends Effect.Service<MemoryBackfill>()("twin/MemoryBackfill", {
  dependencies: [Memories.Default],
  scoped: Effect.gen(function* () {
    const memories = yield* Memories
    const settings = yield* TwinSettings
    const passes = yield* Effect.acquireRelease(PubSub.unbounded<number>(), PubSub.shutdown)

    /** Embeds every pending memory it can; answers how many it embedded. */
    const pass = Effect.gen(function* () {
      let total = 0
      for (;;) {
        const done = yield* memories.backfillBatch(backfillBatchSize)
        total += done
        if (done < backfillBatchSize) return total
      }
    }).pipe(spanNamed("twin.backfill"))

    const tick = pass.pipe(
      Effect.tap((count) => PubSub.publish(passes, count)),
      Effect.catchAllCause((cause) => Effect.logError("The memory backfill pass failed", cause))
    )
    yield* runSingleton(
      "twin.backfill",
      Effect.forever(Effect.zipRight(Effect.sleep(settings.memoryBackfillIntervalMs), tick))
    )

    return { pass, passes: PubSub.subscribe(passes) } as const
  })
}) {}

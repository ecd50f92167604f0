/**
 * The twin's status and settings hints. Providers and connections arrive with the connections
 * feature; until then the node has none to list, so `providers` is empty and those counts are 0,
 * which is the truth of this node, not a placeholder for it.
 */
import * as Effect from "effect/Effect"
import { Activity } from "./activity.ts"
import type { TwinEnv, TwinStatus } from "./contract/records.ts"
import { Memories } from "./memories.ts"
import { TwinBindings } from "./ports.ts"

export class TwinStatusService extends Effect.Service<TwinStatusService>()("twin/TwinStatus", {
  dependencies: [Memories.Default, Activity.Default],
  effect: Effect.gen(function* () {
    const memories = yield* Memories
    const activity = yield* Activity
    const bindings = yield* TwinBindings

    const status = (beingId: string) =>
      Effect.gen(function* () {
        const embeddings = yield* memories.embeddings(beingId)
        return {
          llm: { configured: bindings.cheapAvailable },
          counts: { memories: embeddings.total, files: 0, activity: yield* activity.count(beingId), connections: 0 },
          providers: [],
          embeddings
        } satisfies TwinStatus
      }).pipe(Effect.withSpan("twin.status"))

    const env: TwinEnv = { filesRoot: null, gmail: false, telegram: false, llm: bindings.cheapAvailable }

    return { status, env } as const
  })
}) {}

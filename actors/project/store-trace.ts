/**
 * The store's trace: what a run's agents did, in order, each event written and then published to
 * the project's owner. Apart from store.ts because the trace is its own table read by pages of
 * sequence numbers, and is written the most often: it asks the store for the owner (store.ts
 * remembers it) rather than reading the project's row each time.
 */
import * as Effect from "effect/Effect"
import { toJsonValue } from "../../kernel/contract/json.ts"
import { EventBus } from "../../kernel/events.ts"
import { nowIso } from "../../kernel/time.ts"
import type { TraceEvent, TraceKind } from "./contract/records.ts"
import { TracesRepository } from "./repositories/traces-repository.ts"

export interface TraceInput {
  readonly taskId?: string | null
  readonly kind: TraceKind
  readonly agentId?: string | null
  readonly text: string
  /** Anything JSON can carry; stored and published as JSON carries it. */
  readonly data?: unknown
  /** When it happened, for an event written a moment after (the write's time otherwise). */
  readonly at?: string
}

/** `ownerOf`: the project's owner as the store knows it (store.ts), null for a project that is gone. */
export const makeStoreTrace = (ownerOf: (projectId: string) => Effect.Effect<string | null>) =>
  Effect.gen(function* () {
    const bus = yield* EventBus
    const traceRepository = yield* TracesRepository

    /** Several events of one project, written in one statement, then published in their order. */
    const traceAll = (projectId: string, inputs: ReadonlyArray<TraceInput>) =>
      Effect.gen(function* () {
        if (inputs.length === 0) return [] as ReadonlyArray<TraceEvent>
        const at = yield* nowIso
        const events = yield* traceRepository.insertAll(
          inputs.map((input) => ({
            projectId,
            taskId: input.taskId ?? null,
            kind: input.kind,
            agentId: input.agentId ?? null,
            text: input.text,
            data: toJsonValue(input.data),
            at: input.at ?? at
          }))
        )
        const ownerId = yield* ownerOf(projectId)
        if (ownerId !== null)
          for (const event of events) yield* bus.publish({ kind: "being", beingId: ownerId }, { type: "trace", event })
        return events
      })

    const trace = (projectId: string, input: TraceInput) =>
      Effect.map(traceAll(projectId, [input]), ([event]) => event!)

    const traces = (projectId: string, after: number, limit: number): Effect.Effect<ReadonlyArray<TraceEvent>> =>
      traceRepository.page({ projectId, after, limit })

    return { trace, traceAll, traces } as const
  })

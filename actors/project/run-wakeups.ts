/**
 * A running run's wake-up call: a plan edit may add a step that can start at once, but the run
 * reads the stored plan only when a step ends. The run registers how to wake it while it waits on
 * its steps; the project actor's `PlanEdited` message calls it, so the run reads the plan now. A
 * wake with no run waiting changes nothing (the next run reads the plan anyway).
 */
import * as Effect from "effect/Effect"

export class RunWakeups extends Effect.Service<RunWakeups>()("project/RunWakeups", {
  sync: () => {
    const waiting = new Map<string, Effect.Effect<void>>()

    const register = (projectId: string, wake: Effect.Effect<void>) => Effect.sync(() => waiting.set(projectId, wake))

    const forget = (projectId: string) => Effect.sync(() => waiting.delete(projectId))

    const wake = (projectId: string) => Effect.suspend(() => waiting.get(projectId) ?? Effect.void)

    return { register, forget, wake } as const
  }
}) {}

/**
 * The steps of a run that wait on a person: the run registers the step before it tells the person
 * and waits; the project actor's `StepFinished` message releases it once the person's answer is
 * written. The row is the truth (a run that finds the step done goes on without waiting), so a
 * release that finds nobody waiting changes nothing.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"

export class PersonSteps extends Effect.Service<PersonSteps>()("project/PersonSteps", {
  sync: () => {
    const waiting = new Map<string, Deferred.Deferred<void>>()

    /** Registers the step and answers what to wait on; `forget` when the wait is over. */
    const expect = (taskId: string) =>
      Effect.map(Deferred.make<void>(), (deferred) => {
        waiting.set(taskId, deferred)
        return deferred
      })

    const forget = (taskId: string) => Effect.sync(() => waiting.delete(taskId))

    const release = (taskId: string) =>
      Effect.suspend(() => {
        const deferred = waiting.get(taskId)
        return deferred === undefined ? Effect.succeed(false) : Deferred.succeed(deferred, undefined)
      })

    return { expect, forget, release } as const
  }
}) {}

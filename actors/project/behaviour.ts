/**
 * The project actor. `Run` forks the run (run.ts) and waits for it, so the persisted message is
 * answered only when the run is over; `Cancel` interrupts that fiber from beside it (the entity
 * takes messages concurrently for this). A second `Run` while one is going waits on the same
 * fiber rather than starting another.
 */
import * as Entity from "@effect/cluster/Entity"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { entityLayer } from "../../kernel/actors/index.ts"
import { ProjectActor } from "./protocol.ts"
import { runProject } from "./run.ts"
import { ProjectSettings } from "./settings.ts"
import { ProjectStore } from "./store.ts"
import { PersonSteps } from "./person-steps.ts"
import { RunWakeups } from "./run-wakeups.ts"

type RunRequirements = Effect.Effect.Context<ReturnType<typeof runProject>>

const build = Effect.gen(function* () {
  const projectId = (yield* Entity.CurrentAddress).entityId
  const context = yield* Effect.context<RunRequirements>()
  const concurrency = (yield* ProjectSettings).studioTaskConcurrency
  const steps = yield* PersonSteps
  const wakeups = yield* RunWakeups
  let current: Fiber.RuntimeFiber<void, unknown> | null = null

  const run = Effect.gen(function* () {
    // A run cancelled a moment ago may have ended before its handler cleared `current`: a `Run`
    // (a resume) arriving then must start afresh, not wait on the finished fiber and do nothing.
    if (current !== null && current.unsafePoll() === null) return yield* Fiber.await(current)
    const fiber = yield* Effect.fork(Effect.provide(runProject(projectId, { concurrency }), context))
    current = fiber
    const exit = yield* Fiber.await(fiber)
    if (current === fiber) current = null
    return exit
  }).pipe(Effect.asVoid)

  return ProjectActor.of({
    Run: () => run,
    Cancel: () =>
      Effect.suspend(() => (current === null ? Effect.succeed(false) : Effect.as(Fiber.interrupt(current), true))),
    StepFinished: ({ payload }) => steps.release(payload.taskId),
    PlanEdited: () => wakeups.wake(projectId)
  })
})

/**
 * The actor kind on this node. What a run needs from other features (models, skills, the ports)
 * is left for the host to provide; its own store it brings.
 */
export const ProjectLive = entityLayer(ProjectActor, build, {
  concurrency: "unbounded",
  maxIdleTime: "2 minutes"
}).pipe(Layer.provide(Layer.mergeAll(ProjectStore.Default, PersonSteps.Default, RunWakeups.Default)))

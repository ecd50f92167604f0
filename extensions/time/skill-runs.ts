/**
 * Timed skill runs (schedule.create with a skill): held by the node's one scheduler as a
 * `skill.run` job, run when it fires as the being that scheduled it, in the same project, through
 * the skill runtime with approved = false. So a world-acting skill is never run unapproved: when
 * it fires, the approval gate raises its decision on the owner's desktop, and "Do it" runs it once.
 * A run that fails, or whose skill was uninstalled meanwhile, leaves an alert on the being's
 * desktop; a run is not retried (the scheduler retries only its own faults), since a skill may
 * act once and only once.
 *
 * Split in two so every dependency points one way: the extension host is built with the schedule
 * adapter, and the skill runtime is built over the host. Holding a run (the adapter's side) only
 * checks the skill through the kernel's SkillCheck, which reads the contribution registries the
 * host writes into and never the host itself; running it when it fires (SkillRunsLive) needs the
 * runtime, and is built after it.
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { randomUUID } from "node:crypto"
import { JsonValue, toJsonValue } from "../../kernel/contract/json.ts"
import { SkillCheck } from "../../kernel/extensions/skill-check.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { Skills } from "../../kernel/extensions/skills.ts"
import type { SignalInput } from "../../actors/being/contract/signal.ts"
import { Scheduler } from "./contract/scheduler.ts"
import { Signals } from "../desktop/contract/signals.ts"
import { ScheduledActivity } from "./scheduled-activity.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const skillRunJob = "skill.run"
/** Who raises a failed run's alert. */
const runSource = "schedule:run"

const RunPayload = Schema.Struct({
  skill: Schema.String,
  input: JsonValue,
  projectId: Schema.NullOr(Schema.String),
  at: Schema.String
})
const decodePayload = Schema.decodeUnknownEither(RunPayload)

/** A skill run that schedules more runs would chain itself for ever. */
const unschedulable = new Set(["schedule.create"])

export interface RunRequest {
  readonly beingId: string
  readonly projectId: string | null
  readonly skill: string
  readonly input: unknown
  /** ISO 8601, already normalised. */
  readonly at: string
}

/** Checks the run now (the skill exists, its input fits) and holds it; answers its id, or why not. */
export const holdSkillRun = (request: RunRequest) =>
  Effect.gen(function* () {
    if (unschedulable.has(request.skill)) return Either.left(`${request.skill} cannot be scheduled as a run.`)
    const skills = yield* SkillCheck
    const problem = yield* Effect.either(skills.check(request.skill, request.input))
    if (Either.isLeft(problem)) return Either.left(problem.left.message)
    if (problem.right !== null) return Either.left(problem.right)
    const runId = randomUUID()
    const scheduler = yield* Scheduler
    yield* scheduler.schedule({
      key: `${skillRunJob}:${runId}`,
      kind: skillRunJob,
      beingId: request.beingId,
      dueAt: new Date(request.at),
      payload: { skill: request.skill, input: toJsonValue(request.input), projectId: request.projectId, at: request.at }
    })
    yield* Effect.flatMap(ScheduledActivity, (scheduled) =>
      scheduled.record(request.beingId, { kind: "run", skill: request.skill, at: request.at })
    )
    return Either.right(runId)
  }).pipe(spanNamed("time.holdSkillRun", { attributes: { skill: request.skill } }))

const alert = (title: string, body: string): SignalInput => ({
  kind: "alert",
  title: title.slice(0, 160),
  body: body.slice(0, 4000),
  options: [],
  priority: "normal",
  dueAt: null,
  action: null
})

/** Runs each `skill.run` job when it fires. */
export const SkillRunsLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const skills = yield* Skills
    const signals = yield* Signals
    const scheduler = yield* Scheduler

    const tell = (beingId: string, signal: SignalInput) =>
      signals
        .raise(beingId, signal, runSource, "responsive")
        .pipe(
          Effect.catchAll((error) => Effect.logWarning(`A scheduled run's alert could not be raised: ${error.message}`))
        )

    yield* scheduler.register(skillRunJob, (job) =>
      Effect.gen(function* () {
        const payload = decodePayload(job.payload)
        if (job.beingId === null || Either.isLeft(payload))
          return yield* Effect.logWarning(`The scheduled run ${job.key} is malformed; dropped.`)
        const { skill, input, projectId } = payload.right
        const outcome = yield* Effect.either(
          skills.invoke({ name: skill, input, beingId: job.beingId, projectId, approved: false })
        )
        if (Either.isLeft(outcome)) {
          return yield* tell(
            job.beingId,
            alert(`Scheduled ${skill} did not run`, `${outcome.left.message} It was scheduled for ${payload.right.at}.`)
          )
        }
        const result = outcome.right
        if (result.ok) return yield* Effect.logInfo(`The scheduled run of ${skill} finished.`)
        // Waiting for approval: the decision on the owner's desktop is what they see.
        if (result.approval !== undefined) return
        yield* tell(job.beingId, alert(`Scheduled ${skill} failed`, result.error))
      }).pipe(spanNamed("time.runScheduledSkill"))
    )
  })
  // The host loads the skills before a timed run can call one.
).pipe(Layer.provide(Layer.effectDiscard(ExtensionHost)))

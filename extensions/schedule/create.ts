/**
 * schedule.create: at a given time, either a reminder on the desktop of the person the call works
 * for (delivered then as `signal.created`; a time already past delivers it at once), or a run of
 * another skill with the given input, as that person, in the same project. Both are held by the
 * node's one scheduler. A timed run is never approved: a world-acting skill asks the owner when it
 * fires, as any unapproved call does. One object schema with either `title` or `skill`, since a
 * model's tool parameters must be an object, not a choice of two. With no schedule adapter it
 * answers a plain note, as signal.raise does.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { CapabilityRefused } from "../../kernel/extensions/capability-refused.ts"
import {
  defineSkill,
  refusedAsSkillFailure,
  SkillFailure,
  type SkillRunContext
} from "../../kernel/extensions/skill.ts"

const Input = Schema.Struct({
  title: Schema.optionalWith(
    Schema.String.pipe(
      Schema.filter((title) => title.trim() !== "" || "a title"),
      Schema.maxLength(160)
    ),
    { exact: true }
  ).annotations({ description: "A reminder's title. Give either title (a reminder) or skill (a timed run)." }),
  body: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(4000)), { exact: true }).annotations({
    description: "A reminder's text."
  }),
  skill: Schema.optionalWith(Schema.String.pipe(Schema.pattern(/^[a-z0-9_-]+\.[a-z0-9_-]+$/i), Schema.maxLength(200)), {
    exact: true
  }).annotations({
    description:
      "A skill to run at that time, e.g. docs.write_pdf; a world-acting one asks the owner's approval when it fires."
  }),
  input: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), { exact: true }).annotations(
    { description: "The skill's input, checked against its schema now." }
  ),
  at: Schema.String.pipe(
    Schema.filter((value) => !Number.isNaN(Date.parse(value)) || "an ISO 8601 time such as 2030-01-31T09:00:00Z")
  ).annotations({ description: "When, ISO 8601, e.g. 2030-01-31T09:00:00Z" })
})

const Output = Schema.Struct({
  signalId: Schema.NullOr(Schema.String).annotations({ description: "The reminder's signal; null for a run." }),
  runId: Schema.optionalWith(Schema.String, { exact: true }).annotations({
    description: "The held run, for a timed skill run."
  }),
  at: Schema.NullOr(Schema.String),
  note: Schema.optionalWith(Schema.String, { exact: true })
})

type Input = typeof Input.Type

const refusedWith =
  (context: SkillRunContext, what: string) =>
  <A>(held: Effect.Effect<A, CapabilityRefused>) =>
    held.pipe(
      Effect.tapError((error) =>
        Effect.sync(() => context.trace({ kind: "error", text: `schedule.create refused ${what}: ${error.message}` }))
      ),
      refusedAsSkillFailure
    )

export const create = defineSkill({
  description:
    "Schedule, for a given time, a reminder on the desktop of the person you work for, or a run of another skill with its input.",
  input: Input,
  output: Output,
  run: (input: Input, context) =>
    Effect.gen(function* () {
      if ((input.title === undefined) === (input.skill === undefined)) {
        return yield* new SkillFailure({
          message: "Give either a title (a reminder) or a skill (a timed run), not both and not neither."
        })
      }
      if (input.skill === undefined && input.input !== undefined)
        return yield* new SkillFailure({ message: "input goes with a skill to run." })
      const schedule = context.adapters.schedule
      const what = input.skill === undefined ? `reminder "${input.title}"` : `run of ${input.skill}`
      if (schedule === undefined) {
        const outcome = { signalId: null, at: null, note: "scheduling is not wired on this node yet." }
        context.trace({ kind: "message", text: `${what} not scheduled (${outcome.note})` })
        return outcome
      }
      if (input.skill !== undefined) {
        const held = yield* refusedWith(
          context,
          what
        )(schedule.run({ skill: input.skill, input: input.input ?? {}, at: input.at }))
        context.trace({
          kind: "message",
          text: `${what} scheduled at ${held.at}`,
          data: { skill: input.skill, ...held }
        })
        return { signalId: null, ...held }
      }
      const title = input.title ?? ""
      const scheduled = yield* refusedWith(
        context,
        what
      )(schedule.remind({ title, at: input.at, ...(input.body === undefined ? {} : { body: input.body }) }))
      context.trace({ kind: "message", text: `${what} scheduled at ${scheduled.at}`, data: { title, ...scheduled } })
      return scheduled
    })
})

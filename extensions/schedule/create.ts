/**
 * schedule.create: a timed reminder on the desktop of the person the call works for, held by the
 * node's one scheduler until its time and delivered then as `signal.created` (a time already past
 * delivers it at once). Timed skill runs are the agents issue's part. With no schedule adapter it
 * answers a plain note, as signal.raise does.
 */
import * as Schema from "effect/Schema"
import { defineSkill } from "../../kernel/extensions/skill.ts"

const Input = Schema.Struct({
  title: Schema.String.pipe(Schema.filter((title) => title.trim() !== "" || "a title"), Schema.maxLength(160)),
  body: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(4000)), { exact: true }),
  at: Schema.String.pipe(
    Schema.filter((value) => !Number.isNaN(Date.parse(value)) || "an ISO 8601 time such as 2030-01-31T09:00:00Z")
  ).annotations({ description: "When to remind, ISO 8601, e.g. 2030-01-31T09:00:00Z" })
})

const Output = Schema.Struct({
  signalId: Schema.NullOr(Schema.String),
  at: Schema.NullOr(Schema.String),
  note: Schema.optionalWith(Schema.String, { exact: true })
})

export const create = defineSkill({
  description: "Schedule a reminder: it appears on the desktop of the person you work for at the given time.",
  input: Input,
  output: Output,
  run: async (input, context) => {
    const schedule = context.adapters.schedule
    if (schedule === undefined) {
      const outcome = { signalId: null, at: null, note: "scheduling is not wired on this node yet." }
      context.trace({ kind: "message", text: `reminder not scheduled: "${input.title}" (${outcome.note})` })
      return outcome
    }
    const scheduled = await schedule.remind({ title: input.title, at: input.at, ...(input.body === undefined ? {} : { body: input.body }) }).catch(
      (error: unknown) => {
        context.trace({ kind: "error", text: `schedule.create refused "${input.title}": ${error instanceof Error ? error.message : String(error)}` })
        throw error
      }
    )
    context.trace({ kind: "message", text: `reminder scheduled: "${input.title}" at ${scheduled.at}`, data: { title: input.title, ...scheduled } })
    return scheduled
  }
})

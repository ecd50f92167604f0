/**
 * signal.raise (the first document's schema): a signal on the desktop of the person the call
 * works for. Inside a studio project its source is `studio:<project id>` (the adapter sets it:
 * the runtime tells it the call's project); outside one, `plugin:@svc/desktop`. Every call is
 * traced, raised or not; with no signals adapter it answers delivered false and a plain note.
 * The node checks the finer rules (option ids, the date, the action's size) and refuses plainly.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { defineSkill, refusedAsSkillFailure, withDefault } from "../../kernel/extensions/skill.ts"

const Option = Schema.Struct({
  id: Schema.String,
  label: Schema.String,
  hint: Schema.optionalWith(Schema.String, { exact: true })
})

const Input = Schema.Struct({
  kind: withDefault(Schema.Literal("decision", "insight", "reminder", "alert", "question", "celebration"), "insight"),
  title: Schema.String.pipe(
    Schema.filter((title) => title.trim() !== "" || "a title"),
    Schema.maxLength(160)
  ),
  body: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(4000)), { exact: true }),
  options: Schema.optionalWith(Schema.Array(Option).pipe(Schema.maxItems(6)), { exact: true }),
  priority: withDefault(Schema.Literal("low", "normal", "high", "urgent"), "normal"),
  dueAt: Schema.optionalWith(Schema.String.annotations({ description: "ISO 8601, e.g. 2030-01-31T09:00:00Z" }), {
    exact: true
  }),
  action: Schema.optionalWith(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
      description: "Opaque data carried with the signal."
    }),
    { exact: true }
  )
})

const Output = Schema.Struct({
  signalId: Schema.NullOr(Schema.String),
  delivered: Schema.Boolean.annotations({
    description: "False when the signal is held off the desktop, or none was raised."
  }),
  note: Schema.optionalWith(Schema.String, { exact: true })
})

export const raise = defineSkill({
  description:
    "Raise a signal (a decision, insight, reminder, alert, question or celebration) on the desktop of the person you work for.",
  input: Input,
  output: Output,
  run: (input, context) =>
    Effect.gen(function* () {
      const signals = context.adapters.signals
      const outcome: typeof Output.Type =
        signals === undefined
          ? { signalId: null, delivered: false, note: "signals are not wired on this node yet." }
          : yield* signals.raise(input).pipe(
              Effect.map((raised) =>
                raised.delivered
                  ? raised
                  : { ...raised, note: "The signal is stored but held off the desktop for now." }
              ),
              Effect.tapError((error) =>
                Effect.sync(() =>
                  context.trace({ kind: "error", text: `signal.raise refused "${input.title}": ${error.message}` })
                )
              ),
              refusedAsSkillFailure
            )
      context.trace({
        kind: "message",
        text:
          outcome.signalId === null
            ? `signal not raised: "${input.title}" (${outcome.note})`
            : `signal raised: "${input.title}"`,
        data: { kind: input.kind, title: input.title, priority: input.priority, ...outcome }
      })
      return outcome
    })
})

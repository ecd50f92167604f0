/**
 * The `schedule` capability as plugins get it: a reminder signal (action kind `schedule.fire`)
 * raised now and held until its time, released then by the scheduler (extensions/desktop/signals.ts).
 * It lands where the plugin's signals land (extensions/desktop/contract/signal-sources.ts `callTarget`). A built-in
 * acts for
 * the person its call works for, so its reminder is responsive; a third-party plugin's reminder
 * on the owner's desktop is the plugin's own initiative, so proactive (the hush gate may hold or
 * refuse it). A timed skill run is the node's own plugins' alone (skill-runs.ts): a third-party
 * plugin granted `schedule` could otherwise run, as the being, skills it was never granted.
 * Each reminder or run held is a `scheduled` twin activity of the being it lands on
 * (scheduled-activity.ts).
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import type { ScheduleAdapter } from "../../kernel/extensions/adapters.ts"
import { refused } from "../../kernel/extensions/capability-refused.ts"
import type { CallScope, PluginIdentity } from "../../kernel/extensions/context.ts"
import { callTarget } from "../desktop/contract/signal-sources.ts"
import { Signals } from "../desktop/contract/signals.ts"
import { ScheduledActivity } from "./scheduled-activity.ts"
import { holdSkillRun } from "./skill-runs.ts"

const decodeInput = Schema.decodeUnknownEither(SignalInput)

export const scheduleAdapterFactory = (builtinIds: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const signals = yield* Signals
    const scheduled = yield* ScheduledActivity
    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof holdSkillRun>>>()

    return (plugin: PluginIdentity, scope: CallScope): ScheduleAdapter => {
      const { builtin, source, beingId } = callTarget(builtinIds, plugin, scope)
      const trigger = builtin ? "responsive" : "proactive"
      return {
        remind: (reminder) =>
          Effect.gen(function* () {
            const at = Number.isNaN(Date.parse(reminder.at)) ? reminder.at : new Date(reminder.at).toISOString()
            const decoded = decodeInput({
              kind: "reminder",
              title: reminder.title,
              body: reminder.body ?? "",
              dueAt: at,
              action: { kind: "schedule.fire", at }
            })
            if (Either.isLeft(decoded)) {
              return yield* refused(
                `schedule.remind refused the reminder: ${ParseResult.TreeFormatter.formatErrorSync(decoded.left)}`
              )
            }
            const options = { holdUntil: at }
            const raised = yield* (
              beingId === null
                ? signals.raiseForOwner(decoded.right, source, trigger, options)
                : signals.raise(beingId, decoded.right, source, trigger, options)
            ).pipe(
              Effect.tap(({ signal }) =>
                scheduled.record(signal.beingId, { kind: "reminder", title: reminder.title, at })
              ),
              Effect.mapError((error) => refused(`schedule.remind failed: ${error.message}`))
            )
            return { signalId: raised.signal.id, at }
          }),
        run: (run) =>
          Effect.gen(function* () {
            if (!builtin)
              return yield* refused("schedule.run is for the node's own plugins: a plugin schedules reminders only.")
            if (scope.beingId === null)
              return yield* refused("schedule.run needs a call to run for: there is no being to run it as.")
            if (Number.isNaN(Date.parse(run.at)))
              return yield* refused(`schedule.run refused the time "${run.at}": give an ISO 8601 time.`)
            const at = new Date(run.at).toISOString()
            const held = yield* holdSkillRun({
              beingId: scope.beingId,
              projectId: scope.projectId,
              skill: run.skill,
              input: run.input,
              at
            }).pipe(Effect.provide(context))
            if (Either.isLeft(held)) return yield* refused(`schedule.run refused the run: ${held.left}`)
            return { runId: held.right, at }
          })
      }
    }
  })

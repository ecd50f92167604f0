/**
 * The calendar's reminders as desktop signals: a `reminder` signal whose action kind is
 * `schedule.fire`, raised now through the gate as responsive (the person asked for it) and held
 * until its time, when the scheduler releases it as `signal.created`. It rests on its event, and
 * each one scheduled is a `scheduled` twin activity.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ReminderSignals } from "./ports.ts"
import { Scheduler } from "./scheduler.ts"
import { RELEASE_JOB, Signals } from "../desktop/contract/signals.ts"
import { ScheduledActivity, utcMoment } from "./scheduled-activity.ts"

export const CALENDAR_SOURCE = "calendar"

export const ReminderSignalsLive = Layer.effect(
  ReminderSignals,
  Effect.gen(function* () {
    const signals = yield* Signals
    const scheduler = yield* Scheduler
    const scheduled = yield* ScheduledActivity
    return {
      remind: (event, at) =>
        signals
          .raise(
            event.beingId,
            {
              kind: "reminder",
              title: event.title.slice(0, 160),
              body: [`Starts ${utcMoment(at)}.`, event.location].filter((line) => line !== "").join("\n"),
              options: [],
              priority: "normal",
              dueAt: at,
              action: { kind: "schedule.fire", eventId: event.id, at }
            },
            CALENDAR_SOURCE,
            "responsive",
            { holdUntil: at, evidence: [{ kind: "event", id: event.id }] }
          )
          .pipe(
            // The input is the calendar's own and within every limit; a refusal would be our fault.
            Effect.catchTag("SignalInvalid", Effect.die),
            Effect.map((raised) => raised.signal.id),
            Effect.tap(() => scheduled.record(event.beingId, { kind: "reminder", title: event.title, at }))
          ),
      withdraw: (beingId, signalId) =>
        Effect.all(
          [
            scheduler.cancel(`${RELEASE_JOB}:${signalId}`),
            // Already answered or dismissed (or gone): nothing to take back.
            signals.dismiss(beingId, signalId).pipe(Effect.ignore)
          ],
          { discard: true }
        )
    }
  })
).pipe(Layer.provide(ScheduledActivity.Default))

/**
 * The twin's `scheduled` activity: one line on a being's activity log (and `twin.activity` to its
 * tabs) for each thing scheduled for it: a calendar event's reminder, a reminder or a timed skill
 * run of `schedule.create`. Whatever schedules calls `record` once it is held by the scheduler.
 */
import * as Effect from "effect/Effect"
import { ActivityLog } from "../twin/contract/activity-log.ts"
import { spanNamed } from "../../kernel/spans.ts"

export type Scheduled =
  | { readonly kind: "reminder"; readonly title: string; readonly at: string }
  | { readonly kind: "run"; readonly skill: string; readonly at: string }

/** "Tue, 24 Nov 2026 12:00 UTC": the moment as the activity log says it. */
export const utcMoment = (at: string) => new Date(at).toUTCString().replace(":00 GMT", " UTC")

export const scheduledSummary = (scheduled: Scheduled) =>
  scheduled.kind === "reminder"
    ? `Scheduled a reminder "${scheduled.title.slice(0, 160)}" for ${utcMoment(scheduled.at)}`
    : `Scheduled a run of ${scheduled.skill} for ${utcMoment(scheduled.at)}`

export class ScheduledActivity extends Effect.Service<ScheduledActivity>()("time/ScheduledActivity", {
  effect: Effect.gen(function* () {
    const activity = yield* ActivityLog
    const record = (beingId: string, scheduled: Scheduled) =>
      Effect.asVoid(activity.record(beingId, "scheduled", scheduledSummary(scheduled))).pipe(
        spanNamed("time.recordScheduled")
      )
    return { record } as const
  })
}) {}

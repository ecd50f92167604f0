/**
 * The node's one scheduler as other features call it: a durable timer whose due actions are jobs
 * of a kind a feature registers a handler for (a held signal's release, a timed skill run...).
 * Implemented in extensions/time/scheduler.ts.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"

/** A job as it is stored: its payload as scheduled, its revision (moved jobs get a new one) and attempts. */
export const ScheduledJob = Schema.Struct({
  key: Schema.String,
  kind: Schema.String,
  beingId: Schema.NullOr(Schema.String),
  dueAt: Schema.String,
  payload: JsonValue,
  revision: Schema.Int,
  attempts: Schema.Int
})
export type ScheduledJob = typeof ScheduledJob.Type

/** Runs a due job; a failure is logged and the job tried again later. */
export type JobHandler = (job: ScheduledJob) => Effect.Effect<void, unknown>

export interface JobRequest {
  /** Names the job: scheduling the same key again moves it. */
  readonly key: string
  readonly kind: string
  /** Whose job it is: it goes when the being goes. */
  readonly beingId: string | null
  readonly dueAt: Date
  readonly payload: JsonValue
}

export interface SchedulerShape {
  /** Claims a job kind; a kind claimed twice is a programming error (a defect). */
  readonly register: (kind: string, handler: JobHandler) => Effect.Effect<void>
  readonly schedule: (request: JobRequest) => Effect.Effect<void>
  readonly cancel: (key: string) => Effect.Effect<void>
  readonly find: (key: string) => Effect.Effect<Option.Option<ScheduledJob>>
}

export class Scheduler extends Context.Tag("time/Scheduler")<Scheduler, SchedulerShape>() {}

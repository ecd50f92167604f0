/** The `scheduled_jobs` table: the scheduler's due actions, one row per key. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonValue } from "../../kernel/contract/json.ts"
import { JsonColumn, operation } from "../../kernel/repository.ts"

import { ScheduledJob } from "./contract/scheduler.ts"

export { ScheduledJob }

const JobRow = Schema.Struct({ ...ScheduledJob.fields, payload: JsonColumn(JsonValue) })

const columns = `key, kind, being_id AS "beingId", due_at AS "dueAt", payload, revision, attempts`

export class ScheduledJobsRepository extends Effect.Service<ScheduledJobsRepository>()("time/ScheduledJobsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /** Schedules a key's job, or moves it: a new revision, its attempts reset. */
    const upsert = operation(
      "scheduler.upsert",
      SqlSchema.void({
        Request: Schema.Struct({
          key: Schema.String,
          kind: Schema.String,
          beingId: Schema.NullOr(Schema.String),
          dueAt: Schema.String,
          payload: JsonColumn(JsonValue),
          now: Schema.String
        }),
        execute: (
          job
        ) => sql`INSERT INTO scheduled_jobs (key, kind, being_id, due_at, payload, revision, attempts, created_at)
        VALUES (${job.key}, ${job.kind}, ${job.beingId}, ${job.dueAt}, ${job.payload}, 1, 0, ${job.now})
        ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, being_id = excluded.being_id, due_at = excluded.due_at,
          payload = excluded.payload, revision = scheduled_jobs.revision + 1, attempts = 0`
      })
    )

    const remove = operation(
      "scheduler.remove",
      SqlSchema.void({
        Request: Schema.String,
        execute: (key) => sql`DELETE FROM scheduled_jobs WHERE key = ${key}`
      })
    )

    /** Removes a fired job unless it was scheduled again while it ran. */
    const removeFired = operation(
      "scheduler.removeFired",
      SqlSchema.void({
        Request: Schema.Struct({ key: Schema.String, revision: Schema.Int }),
        execute: ({ key, revision }) => sql`DELETE FROM scheduled_jobs WHERE key = ${key} AND revision = ${revision}`
      })
    )

    /** A failed job's next try, unless it was scheduled again while it ran. */
    const retryLater = operation(
      "scheduler.retryLater",
      SqlSchema.void({
        Request: Schema.Struct({ key: Schema.String, revision: Schema.Int, dueAt: Schema.String }),
        execute: ({ key, revision, dueAt }) => sql`UPDATE scheduled_jobs SET due_at = ${dueAt}, attempts = attempts + 1
        WHERE key = ${key} AND revision = ${revision}`
      })
    )

    /** The soonest jobs of the kinds someone handles, due or not. */
    const soonest = operation(
      "scheduler.soonest",
      SqlSchema.findAll({
        Request: Schema.Struct({ kinds: Schema.Array(Schema.String), limit: Schema.Int }),
        Result: JobRow,
        execute: ({ kinds, limit }) =>
          kinds.length === 0
            ? sql`SELECT ${all} FROM scheduled_jobs WHERE 0 = 1`
            : sql`SELECT ${all} FROM scheduled_jobs WHERE ${sql.in("kind", kinds)} ORDER BY due_at, key LIMIT ${limit}`
      })
    )

    const find = operation(
      "scheduler.find",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: JobRow,
        execute: (key) => sql`SELECT ${all} FROM scheduled_jobs WHERE key = ${key}`
      })
    )

    return { upsert, remove, removeFired, retryLater, soonest, find } as const
  })
}) {}

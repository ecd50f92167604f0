/**
 * The `project_due_dates` table: target dates of a project ('' as task_id) and of its steps, held
 * apart from their rows. The project and task reads join them in.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"

/** `taskId` null: the project's own date. */
const DueKey = Schema.Struct({ projectId: Schema.String, taskId: Schema.NullOr(Schema.String) })

export class DueDatesRepository extends Effect.Service<DueDatesRepository>()("project/DueDatesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const set = operation(
      "projectDueDates.set",
      SqlSchema.void({
        Request: Schema.Struct({ ...DueKey.fields, dueAt: Schema.String }),
        execute: ({ dueAt, projectId, taskId }) => sql`INSERT INTO project_due_dates (project_id, task_id, due_at)
        VALUES (${projectId}, ${taskId ?? ""}, ${dueAt})
        ON CONFLICT (project_id, task_id) DO UPDATE SET due_at = excluded.due_at`
      })
    )

    const clear = operation(
      "projectDueDates.clear",
      SqlSchema.void({
        Request: DueKey,
        execute: ({ projectId, taskId }) =>
          sql`DELETE FROM project_due_dates WHERE project_id = ${projectId} AND task_id = ${taskId ?? ""}`
      })
    )

    return { set, clear } as const
  })
}) {}

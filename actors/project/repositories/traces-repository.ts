/**
 * The `project_traces` table: everything a run's agents did, in order. The sequence number is the
 * event's id, so `?after=<id>` pages on it.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { TraceEvent } from "../contract/records.ts"

const { id: _id, ...traceFields } = TraceEvent.fields

const TraceRow = Schema.Struct({ ...traceFields, seq: Schema.Number, data: JsonColumn(JsonValue) })

export class TracesRepository extends Effect.Service<TracesRepository>()("project/TracesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insertRow = SqlSchema.findAll({
      Request: Schema.Struct({ ...traceFields, data: JsonColumn(JsonValue) }),
      Result: Schema.Struct({ seq: Schema.Number }),
      execute: (row) => sql`INSERT INTO project_traces (project_id, task_id, kind, agent_id, text, data, at)
        VALUES (${row.projectId}, ${row.taskId}, ${row.kind}, ${row.agentId}, ${row.text}, ${row.data}, ${row.at}) RETURNING seq`
    })

    /** The event as written, with the id it was given. */
    const insert = operation("projectTraces.insert", (event: Omit<TraceEvent, "id">) =>
      Effect.flatMap(insertRow(event), ([inserted]) =>
        inserted === undefined
          ? Effect.dieMessage("an inserted trace event returned no sequence number")
          : Effect.succeed<TraceEvent>({ ...event, id: String(inserted.seq) })
      )
    )

    /** At most `limit` events after `after`, oldest first. */
    const rows = operation(
      "projectTraces.page",
      SqlSchema.findAll({
        Request: Schema.Struct({ projectId: Schema.String, after: Schema.Number, limit: Schema.Number }),
        Result: TraceRow,
        execute: ({
          after,
          limit,
          projectId
        }) => sql`SELECT seq, project_id AS "projectId", task_id AS "taskId", kind, agent_id AS "agentId",
          text, data, at FROM project_traces
        WHERE project_id = ${projectId} AND seq > ${after} ORDER BY seq LIMIT ${limit}`
      })
    )

    const page = (request: { readonly projectId: string; readonly after: number; readonly limit: number }) =>
      Effect.map(rows(request), (found) =>
        found.map(({ seq, ...event }): TraceEvent => ({ ...event, id: String(seq) }))
      )

    return { insert, page } as const
  })
}) {}

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

    const insertRows = SqlSchema.findAll({
      Request: Schema.Array(Schema.Struct({ ...traceFields, data: JsonColumn(JsonValue) })),
      Result: Schema.Struct({ seq: Schema.Number }),
      execute: (rows) => sql`INSERT INTO project_traces (project_id, task_id, kind, agent_id, text, data, at)
        VALUES ${sql.join(", ", false)(rows.map((row) => sql`(${row.projectId}, ${row.taskId}, ${row.kind}, ${row.agentId}, ${row.text}, ${row.data}, ${row.at})`))}
        RETURNING seq`
    })

    /** The events as written, in order, in one statement: sequence numbers rise in the order the rows are given. */
    const insertAll = operation("projectTraces.insertAll", (events: ReadonlyArray<Omit<TraceEvent, "id">>) =>
      Effect.flatMap(insertRows(events), (inserted) => {
        const seqs = inserted.map(({ seq }) => seq).sort((a, b) => a - b)
        return seqs.length === events.length
          ? Effect.succeed(events.map((event, at): TraceEvent => ({ ...event, id: String(seqs[at]) })))
          : Effect.dieMessage("inserted trace events returned fewer sequence numbers than rows")
      })
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

    return { insertAll, page } as const
  })
}) {}

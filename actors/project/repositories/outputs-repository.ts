/** The `project_outputs` table: the files a finished run hands over, one row each. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { isIn, operation } from "../../../kernel/repository.ts"
import { OutputKind } from "../../../extensions/generators/contract/step.ts"
import { ProjectOutput } from "../contract/records.ts"

const { url: _url, ...outputFields } = ProjectOutput.fields

/** An output as stored: the record without its URL, which is made from the project and the path. */
export const OutputRow = Schema.Struct(outputFields)
export type OutputRow = typeof OutputRow.Type

export class OutputsRepository extends Effect.Service<OutputsRepository>()("project/OutputsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** In the order written (`seq`, kernel/sequence-column.ts). */
    const listByProject = operation(
      "projectOutputs.listByProject",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: OutputRow,
        execute: (projectId) => sql`SELECT id, kind, name, path, size, preview_url AS "previewUrl"
        FROM project_outputs WHERE project_id = ${projectId} ORDER BY seq`
      })
    )

    /** Every output of the given projects in one statement, each with its project, in the order written. */
    const listByProjects = operation(
      "projectOutputs.listByProjects",
      SqlSchema.findAll({
        Request: Schema.Array(Schema.String),
        Result: Schema.Struct({ ...OutputRow.fields, projectId: Schema.String }),
        execute: (projectIds) => sql`SELECT o.project_id AS "projectId", o.id, o.kind, o.name, o.path, o.size,
          o.preview_url AS "previewUrl"
        FROM project_outputs o WHERE ${isIn(sql, "o.project_id", projectIds)}
        ORDER BY o.seq`
      })
    )

    const removeAll = operation(
      "projectOutputs.removeAll",
      SqlSchema.void({
        Request: Schema.String,
        execute: (projectId) => sql`DELETE FROM project_outputs WHERE project_id = ${projectId}`
      })
    )

    const insert = operation(
      "projectOutputs.insert",
      SqlSchema.void({
        Request: Schema.Struct({
          id: Schema.String,
          projectId: Schema.String,
          taskId: Schema.NullOr(Schema.String),
          kind: OutputKind,
          name: Schema.String,
          path: Schema.String,
          size: Schema.Number
        }),
        execute: (output) => sql`INSERT INTO project_outputs (id, project_id, task_id, kind, name, path, size)
        VALUES (${output.id}, ${output.projectId}, ${output.taskId}, ${output.kind}, ${output.name}, ${output.path}, ${output.size})`
      })
    )

    return { listByProject, listByProjects, removeAll, insert } as const
  })
}) {}

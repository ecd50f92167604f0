/** The `project_crews` table: a project's bound group, and when the binding last changed. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, operation } from "../../kernel/repository.ts"

export const CrewRow = Schema.Struct({
  projectId: Schema.String,
  groupId: Schema.NullOr(Schema.String),
  includeDescendants: BooleanColumn,
  setAt: Schema.String
})
export type CrewRow = typeof CrewRow.Type

export class CrewsRepository extends Effect.Service<CrewsRepository>()("groups/CrewsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const find = operation(
      "crews.find",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: CrewRow,
        execute: (
          projectId
        ) => sql`SELECT project_id AS "projectId", group_id AS "groupId", include_descendants AS "includeDescendants",
          set_at AS "setAt" FROM project_crews WHERE project_id = ${projectId}`
      })
    )

    const put = operation(
      "crews.put",
      SqlSchema.void({
        Request: Schema.Struct({ ...CrewRow.fields, setBy: Schema.String }),
        execute: (crew) => sql`INSERT INTO project_crews (project_id, group_id, include_descendants, set_by, set_at)
        VALUES (${crew.projectId}, ${crew.groupId}, ${crew.includeDescendants}, ${crew.setBy}, ${crew.setAt})
        ON CONFLICT (project_id) DO UPDATE SET group_id = excluded.group_id, include_descendants = excluded.include_descendants,
          set_by = excluded.set_by, set_at = excluded.set_at`
      })
    )

    return { find, put } as const
  })
}) {}

/** The `citizens` table: what makes a being of kind 'citizen' one (its persona's role, avatar and description). */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { operation } from "../../../kernel/repository.ts"
import { Citizen } from "../contract/records.ts"

export const CitizenRow = Schema.Struct({ beingId: Schema.String, ...Citizen.fields })
export type CitizenRow = typeof CitizenRow.Type

const columns = `being_id AS "beingId", role, avatar, description`

export class CitizensRepository extends Effect.Service<CitizensRepository>()("souls/CitizensRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const find = operation(
      "citizens.find",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: CitizenRow,
        execute: (beingId) => sql`SELECT ${all} FROM citizens WHERE being_id = ${beingId}`
      })
    )

    const list = operation(
      "citizens.list",
      SqlSchema.findAll({
        Request: Schema.Void,
        Result: CitizenRow,
        execute: () => sql`SELECT ${all} FROM citizens ORDER BY being_id`
      })
    )

    const upsert = operation(
      "citizens.upsert",
      SqlSchema.void({
        Request: CitizenRow,
        execute: (citizen) =>
          sql`INSERT INTO citizens (being_id, role, avatar, description) VALUES (${citizen.beingId}, ${citizen.role}, ${citizen.avatar}, ${citizen.description})
          ON CONFLICT (being_id) DO UPDATE SET role = excluded.role, avatar = excluded.avatar, description = excluded.description`
      })
    )

    return { find, list, upsert } as const
  })
}) {}

/** `mcp_clients`: a person's MCP clients, found by their token's digest (the token itself is never stored). */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../kernel/repository.ts"
import { McpClient, McpGrant } from "./contract/records.ts"

export const StoredMcpClient = Schema.Struct({
  ...McpClient.fields,
  beingId: Schema.String,
  grants: JsonColumn(Schema.Array(McpGrant))
})
export type StoredMcpClient = typeof StoredMcpClient.Type

const columns = `id, being_id AS "beingId", name, grants, created_at AS "createdAt"`

export class McpClientsRepository extends Effect.Service<McpClientsRepository>()("mcp/McpClientsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    const insert = operation(
      "mcp.insertClient",
      SqlSchema.void({
        Request: Schema.Struct({ ...StoredMcpClient.fields, tokenDigest: Schema.String }),
        execute: (client) => sql`INSERT INTO mcp_clients (id, being_id, name, grants, token_digest, created_at)
          VALUES (${client.id}, ${client.beingId}, ${client.name}, ${client.grants}, ${client.tokenDigest},
          ${client.createdAt})`
      })
    )

    const listOf = operation(
      "mcp.listClients",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: StoredMcpClient,
        execute: (beingId) =>
          sql`SELECT ${sql.literal(columns)} FROM mcp_clients WHERE being_id = ${beingId}
            ORDER BY created_at DESC, id DESC`
      })
    )

    const byDigest = operation(
      "mcp.clientByDigest",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredMcpClient,
        execute: (digest) => sql`SELECT ${sql.literal(columns)} FROM mcp_clients WHERE token_digest = ${digest}`
      })
    )

    const remove = operation(
      "mcp.removeClient",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, id: Schema.String }),
        Result: Schema.Struct({ id: Schema.String }),
        execute: ({ beingId, id }) =>
          sql`DELETE FROM mcp_clients WHERE id = ${id} AND being_id = ${beingId} RETURNING id`
      })
    )

    return { insert, listOf, byDigest, remove } as const
  })
}) {}

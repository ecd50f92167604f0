/**
 * `mcp_plugin_tokens`: the bearer token the owner gave a remote MCP server at its plugin's install, sealed by the
 * twin's secret box (SecretSealer), read back when the node connects to the server (at boot, on another process) and
 * forgotten with the plugin. The token leaves the host only as the `Authorization` header of the server's requests.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { operation } from "../../kernel/repository.ts"
import { SecretSealer } from "../twin/contract/secret-sealer.ts"

export interface McpPluginTokens {
  /** Seals `token` for the plugin (None: it has none, and an older one is forgotten). */
  readonly keep: (
    pluginId: string,
    token: Option.Option<Redacted.Redacted<string>>
  ) => Effect.Effect<void, { readonly message: string }>
  readonly read: (pluginId: string) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
  readonly forget: (pluginId: string) => Effect.Effect<void>
}

export const mcpPluginTokens: Effect.Effect<McpPluginTokens, never, SqlClient.SqlClient | SecretSealer> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    const sealer = yield* SecretSealer

    const write = operation(
      "mcp.keepPluginToken",
      SqlSchema.void({
        Request: Schema.Struct({ pluginId: Schema.String, sealed: Schema.String, updatedAt: Schema.String }),
        execute: ({ pluginId, sealed, updatedAt }) =>
          sql`INSERT INTO mcp_plugin_tokens (plugin_id, sealed, updated_at) VALUES (${pluginId}, ${sealed}, ${updatedAt})
            ON CONFLICT (plugin_id) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`
      })
    )
    const sealedOf = operation(
      "mcp.pluginToken",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: Schema.Struct({ sealed: Schema.String }),
        execute: (pluginId) => sql`SELECT sealed FROM mcp_plugin_tokens WHERE plugin_id = ${pluginId}`
      })
    )
    const forget = operation(
      "mcp.forgetPluginToken",
      SqlSchema.void({
        Request: Schema.String,
        execute: (pluginId) => sql`DELETE FROM mcp_plugin_tokens WHERE plugin_id = ${pluginId}`
      })
    )

    return {
      keep: (pluginId, token) =>
        Option.isNone(token)
          ? forget(pluginId)
          : Effect.gen(function* () {
              const sealed = yield* sealer.seal(Redacted.value(token.value))
              const updatedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
              yield* write({ pluginId, sealed, updatedAt })
            }),
      read: (pluginId) =>
        Effect.flatMap(
          sealedOf(pluginId),
          Option.match({ onNone: () => Effect.succeedNone, onSome: (row) => sealer.open(row.sealed) })
        ),
      forget
    }
  }
)

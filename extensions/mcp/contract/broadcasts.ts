/** What the MCP feature tells the other processes sharing the database (kernel/contract/broadcast.ts). */
import * as Schema from "effect/Schema"

/** A client revoked: every process ends that client's open MCP sessions. */
export const McpClientRevoked = Schema.Struct({ kind: Schema.Literal("mcp.client.revoked"), clientId: Schema.String })

declare module "../../../kernel/contract/broadcast.ts" {
  interface BroadcastMessages {
    "mcp.client.revoked": typeof McpClientRevoked.Type
  }
}

/**
 * The node as an MCP server, as its routes name it: the grants a person gives an assistant's client, the client as
 * listed (never its token) and as minted (its token, shown that once). Plain schemas: the web app imports this file.
 */
import * as Schema from "effect/Schema"

/** What a client may do with its person's twin; each tool and resource needs one (docs/api.md "MCP"). */
export const mcpGrants = [
  "memory.read",
  "memory.write",
  "todos.read",
  "todos.write",
  "calendar.read",
  "calendar.write",
  "files.read"
] as const
export const McpGrant = Schema.Literal(...mcpGrants)
export type McpGrant = typeof McpGrant.Type

export const McpClient = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  grants: Schema.Array(McpGrant),
  createdAt: Schema.String
})
export type McpClient = typeof McpClient.Type

/** The answer to a mint: the bearer token rides here once; only its digest is kept. */
export const MintedMcpClient = Schema.Struct({ ...McpClient.fields, token: Schema.String })
export type MintedMcpClient = typeof MintedMcpClient.Type

/** At least one grant; a grant named twice counts once. */
export const MintMcpClient = Schema.Struct({
  name: Schema.Trim.pipe(Schema.minLength(1, { message: () => "a name" }), Schema.maxLength(100)),
  grants: Schema.Array(McpGrant).pipe(Schema.minItems(1), Schema.maxItems(mcpGrants.length * 2))
})
export type MintMcpClient = typeof MintMcpClient.Type

export const McpClientIdPath = Schema.Struct({
  id: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{1,64}$/, { message: () => "a client id" }))
})

/** The most clients one person keeps at once: each is a live credential to their twin. */
export const MCP_CLIENTS_MAX = 50

/** The route assistants speak MCP's Streamable HTTP transport to. */
export const MCP_PATH = "/api/mcp"

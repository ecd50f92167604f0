/** The MCP SDK's own client over Streamable HTTP, as an assistant holding a client's token connects to /api/mcp. */
import { Client as McpSdkClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { type Client, run } from "./client.ts"
import type { McpGrant } from "../../extensions/mcp/contract/records.ts"

let assistants = 0

/** Connects (initialize and its notification) with `token` as the bearer, from an address of its own. */
export const connectMcp = async (base: string, token: string): Promise<McpSdkClient> => {
  assistants += 1
  const client = new McpSdkClient({ name: `assistant-${assistants}`, version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
    requestInit: {
      headers: { authorization: `Bearer ${token}`, "x-forwarded-for": `10.250.${assistants >> 8}.${assistants & 255}` }
    }
  })
  await client.connect(transport)
  return client
}

/** Mints a client for the signed-in person behind `owner` with these grants. */
export const mintMcp = (person: Client, grants: ReadonlyArray<McpGrant>, name = "Desktop assistant") =>
  run(person.api.mcpClients.mint({ payload: { name, grants } }))

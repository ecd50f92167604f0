/**
 * One MCP server (the SDK's) for one session of one client: it lists the tools and the `twin://profile` resource the
 * client's grants allow, and runs each call as the client's person. Refusals are the protocol's: an unknown tool, one
 * outside the grants and arguments that do not decode are JSON-RPC errors (-32602, the schema's issue quoted); a
 * refusal of the service the tool called (a to-do not found, a file too large) is the tool's error result, the route's
 * refusal body as its text. Each call that acts writes a `mcp` activity to the twin naming the client.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as JSONSchema from "effect/JSONSchema"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ActivityLog } from "../twin/contract/activity-log.ts"
import { TwinProfiles } from "../twin/contract/profiles.ts"
import type * as Context from "effect/Context"
import type { McpCalls } from "./calls.ts"
import type { McpIdentity } from "./clients.ts"
import { type McpTool, mcpTools, type ToolServices } from "./tools.ts"
import { mcpServer, mcpTypes } from "./sdk.ts"

export const PROFILE_URI = "twin://profile"

export type ServerServices = ToolServices | TwinProfiles | ActivityLog

/** The node as MCP's `serverInfo` names it. */
const serverInfo = { name: "personal-node", title: "Personal node: your twin", version: "1.0.0" }

/** A tool as `tools/list` shows it: its input's JSON Schema, read-only and closed-world where it only reads. */
const listed = (tool: McpTool<unknown>): Tool => {
  const { $schema: _, ...inputSchema } = JSONSchema.make(tool.input) as unknown as Record<string, unknown>
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema as Tool["inputSchema"],
    annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false }
  }
}

const toolsByName = new Map(mcpTools.map((tool) => [tool.name, tool]))

const quote = (text: string) => (text.length > 200 ? `${text.slice(0, 199)}…` : text)

export const makeServer = (identity: McpIdentity, calls: McpCalls, services: Context.Context<ServerServices>) => {
  const { client, caller } = identity
  const granted = new Set(client.grants)
  const run = <A, E>(effect: Effect.Effect<A, E, ServerServices>) => calls.perform(Effect.provide(effect, services))
  const record = (did: string) =>
    Effect.flatMap(ActivityLog, (activity) => activity.record(caller.beingId, "mcp", `${client.name} ${did}`))

  const {
    CallToolRequestSchema,
    ErrorCode,
    ListResourcesRequestSchema,
    ListToolsRequestSchema,
    McpError,
    ReadResourceRequestSchema
  } = mcpTypes()
  const server = new (mcpServer().Server)(serverInfo, {
    capabilities: { tools: {}, resources: {} },
    instructions:
      "The twin of one person on their personal node: their memories, to-dos, calendar and files, as far as this " +
      "client's grants reach."
  })

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: mcpTools.filter((tool) => granted.has(tool.grant)).map(listed)
  }))

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolsByName.get(request.params.name)
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${quote(request.params.name)}`)
    if (!granted.has(tool.grant)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `This client may not call ${tool.name}: it needs the ${tool.grant} grant, which its person did not give.`
      )
    }
    const decoded = Schema.decodeUnknownEither(tool.input)(request.params.arguments ?? {})
    if (decoded._tag === "Left") {
      const issue = ParseResult.TreeFormatter.formatErrorSync(decoded.left)
      throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${tool.name}: ${quote(issue)}`)
    }
    const exit = await run(Effect.tap(tool.run(caller, decoded.right, client.name), ({ did }) => record(did)))
    if (Exit.isSuccess(exit)) {
      const { structured } = exit.value
      return { content: [{ type: "text", text: JSON.stringify(structured) }], structuredContent: structured }
    }
    const refusal = Cause.failureOption(exit.cause)
    if (refusal._tag === "None") throw new McpError(ErrorCode.InternalError, "The node failed to run this tool.")
    const { error, message } = refusal.value
    return { content: [{ type: "text", text: JSON.stringify({ error, message }) }], isError: true }
  })

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: granted.has("memory.read")
      ? [
          {
            uri: PROFILE_URI,
            name: "profile",
            title: "The person's twin profile",
            description: "Facts, goals, routines, preferences, tone and time zone, as JSON.",
            mimeType: "application/json"
          }
        ]
      : []
  }))

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    if (request.params.uri !== PROFILE_URI || !granted.has("memory.read")) {
      throw new McpError(-32002, `Resource not found: ${quote(request.params.uri)}`)
    }
    const exit = await run(
      Effect.flatMap(TwinProfiles, (profiles) => profiles.get(caller.beingId)).pipe(
        Effect.tap(() => record("read the profile"))
      )
    )
    if (Exit.isFailure(exit)) throw new McpError(ErrorCode.InternalError, "The node failed to read the profile.")
    return { contents: [{ uri: PROFILE_URI, mimeType: "application/json", text: JSON.stringify(exit.value) }] }
  })

  return server
}

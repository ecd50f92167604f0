/**
 * A remote MCP server for the tests: the SDK's own McpServer over its Streamable HTTP server transport on a loopback
 * port, one server per session. It asks for a bearer token when given one (401 otherwise), records every
 * Authorization header it sees, can refuse its next initializations (503, a server not up yet), and can add or remove
 * a tool while sessions run (the SDK then sends `notifications/tools/list_changed`).
 */
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js"
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as z from "zod"

export interface RemoteMcp {
  readonly url: string
  /** Every Authorization header seen ("" when none came), one per request. */
  readonly authorizations: Array<string>
  /** What `send_note` was asked to send, in order. */
  readonly notes: Array<string>
  /** How many initializations to refuse with 503 from now on. */
  refuseNext: number
  /** How many sessions were opened. */
  readonly sessionsOpened: () => number
  /** Forgets every session, as a server that restarted: a request naming one is answered 404. */
  readonly forgetSessions: () => void
  readonly addTool: (name: string) => void
  readonly removeTool: (name: string) => void
  readonly close: () => Promise<void>
}

type ToolSetup = (server: McpServer) => RegisteredTool

export const startRemoteMcp = async (options: { readonly token?: string } = {}): Promise<RemoteMcp> => {
  const notes: Array<string> = []
  const setups = new Map<string, ToolSetup>([
    [
      "shout",
      (server) =>
        server.registerTool(
          "shout",
          {
            title: "Shout",
            description: "Says the text in capitals.",
            inputSchema: { text: z.string() },
            outputSchema: { shouted: z.string() },
            annotations: { readOnlyHint: true, openWorldHint: false }
          },
          async ({ text }) => ({
            content: [{ type: "text", text: text.toUpperCase() }],
            structuredContent: { shouted: text.toUpperCase() }
          })
        )
    ],
    [
      "send_note",
      (server) =>
        server.registerTool(
          "send_note",
          { description: "Sends a note to the team.", inputSchema: { text: z.string() } },
          async ({ text }) => {
            notes.push(text)
            return { content: [{ type: "text", text: `sent: ${text}` }] }
          }
        )
    ]
  ])
  const whisper: ToolSetup = (server) =>
    server.registerTool(
      "whisper",
      {
        description: "Says the text in small letters.",
        inputSchema: { text: z.string() },
        annotations: { readOnlyHint: true, openWorldHint: false }
      },
      async ({ text }) => ({ content: [{ type: "text", text: text.toLowerCase() }] })
    )
  /** Each session's server and its tools by name. */
  const sessions = new Map<
    string,
    { server: McpServer; transport: StreamableHTTPServerTransport; tools: Map<string, RegisteredTool> }
  >()
  let opened = 0
  const state: RemoteMcp = {
    url: "",
    authorizations: [],
    notes,
    refuseNext: 0,
    sessionsOpened: () => opened,
    forgetSessions: () => {
      const open = [...sessions.values()]
      sessions.clear()
      for (const session of open) void session.transport.close()
    },
    addTool: (name) => {
      setups.set(name, whisper)
      for (const session of sessions.values()) session.tools.set(name, whisper(session.server))
    },
    removeTool: (name) => {
      setups.delete(name)
      for (const session of sessions.values()) {
        session.tools.get(name)?.remove()
        session.tools.delete(name)
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions.values()) void session.transport.close()
        http.closeAllConnections()
        http.close(() => resolve())
      })
  }
  const http = createServer((request, response) => {
    const authorization = request.headers.authorization ?? ""
    state.authorizations.push(authorization)
    if (options.token !== undefined && authorization !== `Bearer ${options.token}`) {
      response.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_token"}')
      return
    }
    const sessionId = request.headers["mcp-session-id"]
    const known = typeof sessionId === "string" ? sessions.get(sessionId) : undefined
    if (known !== undefined) return void known.transport.handleRequest(request, response)
    if (state.refuseNext > 0 && request.method === "POST") {
      state.refuseNext -= 1
      response.writeHead(503, { "content-type": "text/plain" }).end("not up yet")
      return
    }
    const server = new McpServer({ name: "remote-test", version: "1.0.0" })
    const tools = new Map([...setups].map(([name, setup]) => [name, setup(server)]))
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        opened += 1
        sessions.set(id, { server, transport, tools })
      }
    })
    void server.connect(transport).then(() => transport.handleRequest(request, response))
  })
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve))
  return Object.assign(state, { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` })
}

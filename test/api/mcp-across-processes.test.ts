/**
 * The MCP server on two node processes over one PostgreSQL: a client minted on one works on the other (its to-do then
 * listed by the first), and a revocation on one stops the token on the other at once, ending even the server stream
 * the other process holds open for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectMcp, mintMcp } from "../support/mcp.ts"
import { run } from "../support/node.ts"
import { startTwoProcesses, type TwoProcesses } from "../support/processes.ts"

let processes: TwoProcesses

beforeAll(async () => {
  processes = await startTwoProcesses()
}, 120_000)
afterAll(() => processes?.close())

describe("MCP across processes", () => {
  it("takes a client minted on one process on the other", async () => {
    const minted = await mintMcp(processes.owner, ["todos.write", "todos.read"])
    const assistant = await connectMcp(processes.second.url, minted.token)
    const added = await assistant.callTool({ name: "todo_add", arguments: { title: "Made on the second" } })
    const { todo } = added.structuredContent as { todo: { id: string } }
    const listed = await run(processes.owner.api.twinTime.listTodos({ urlParams: { limit: 100, offset: 0 } }))
    expect(listed.map((found) => found.id)).toContain(todo.id)
    await assistant.close()
  })

  it("stops a token revoked on one process on the other at once, its open stream too", async () => {
    const minted = await mintMcp(processes.owner, ["todos.read"])
    const assistant = await connectMcp(processes.second.url, minted.token)
    await assistant.callTool({ name: "todos_list", arguments: {} })

    // The server's stream of a session of its own, held open on the second process.
    const headers = { authorization: `Bearer ${minted.token}`, accept: "application/json, text/event-stream" }
    const initialized = await fetch(`${processes.second.url}/api/mcp`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
      })
    })
    const sessionId = initialized.headers.get("mcp-session-id")!
    await initialized.text()
    const stream = await fetch(`${processes.second.url}/api/mcp`, {
      headers: {
        ...headers,
        accept: "text/event-stream",
        "mcp-session-id": sessionId,
        "mcp-protocol-version": "2025-11-25"
      }
    })
    expect(stream.status).toBe(200)
    const ended = (async () => {
      const reader = stream.body!.getReader()
      for (;;) if ((await reader.read()).done) return true
    })()

    await run(processes.owner.api.mcpClients.revoke({ path: { id: minted.id } }))
    await expect(assistant.callTool({ name: "todos_list", arguments: {} })).rejects.toThrow()
    expect(await ended).toBe(true)
    await expect(connectMcp(processes.second.url, minted.token)).rejects.toThrow()
  })
})

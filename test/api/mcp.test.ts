/**
 * The node as an MCP server, through the SDK's own client over Streamable HTTP: a person mints a client with grants
 * (its token once, a digest kept); the assistant initializes, sees only the granted tools, searches its person's
 * memory (never another's), adds a to-do the HTTP route then lists, reads the profile resource; a call outside the
 * grants, bad arguments and an unknown tool are JSON-RPC errors; a revoked token stops at once; a cookie alone, a
 * foreign Origin, a wrong content type and other people's clients are refused; each call is a `mcp` activity.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { connectMcp, mintMcp } from "../support/mcp.ts"
import { nodeWithOwner, refused, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

const remember = (person: Registered, content: string) =>
  run(person.client.api.twin.createMemory({ payload: { content } }))

const rpcError = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason
  )
  expect(error).toBeInstanceOf(McpError)
  return error as McpError
}

describe("MCP clients", () => {
  it("mints a client whose token is shown once and lists it without one", async () => {
    const minted = await mintMcp(member.client, ["memory.read", "memory.read", "todos.write"], "Laptop")
    expect(minted).toMatchObject({ name: "Laptop", grants: ["memory.read", "todos.write"] })
    expect(minted.token).toMatch(/^pmcp_[A-Za-z0-9_-]{40,}$/)
    const listed = await run(member.client.api.mcpClients.list())
    const mine = listed.find((client) => client.id === minted.id)
    expect(mine).toEqual({
      id: minted.id,
      name: "Laptop",
      grants: ["memory.read", "todos.write"],
      createdAt: minted.createdAt
    })
    expect(JSON.stringify(listed)).not.toContain(minted.token)
    // Another person sees none of it and cannot revoke it.
    expect((await run(context.owner.client.api.mcpClients.list())).map((client) => client.id)).not.toContain(minted.id)
    const theirs = await refused(context.owner.client.api.mcpClients.revoke({ path: { id: minted.id } }))
    expect(theirs).toMatchObject({ status: 404, body: { error: "not_found" } })
  })

  it("refuses a mint without a session, with no grant or an unknown one, and from another site", async () => {
    const anonymous = await context.owner.client.raw(
      "POST",
      "/api/mcp/clients",
      { name: "x", grants: ["memory.read"] },
      {
        cookie: ""
      }
    )
    expect(anonymous.status).toBe(401)
    for (const grants of [[], ["memory.delete"]]) {
      const answer = await member.client.raw("POST", "/api/mcp/clients", { name: "x", grants })
      expect(answer.status).toBe(400)
    }
    const foreign = await member.client.raw(
      "POST",
      "/api/mcp/clients",
      { name: "x", grants: ["memory.read"] },
      { origin: "https://evil.example" }
    )
    expect(foreign.status).toBe(403)
  })
})

describe("the MCP server", () => {
  it("initializes and lists only the granted tools, and the profile only with memory.read", async () => {
    const reader = await mintMcp(member.client, ["memory.read", "todos.write"])
    const assistant = await connectMcp(context.node.url, reader.token)
    expect(assistant.getServerVersion()?.name).toBe("personal-node")
    const { tools } = await assistant.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(["memory_search", "todo_add", "todo_complete"])
    const search = tools.find((tool) => tool.name === "memory_search")!
    expect(search.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false })
    expect(search.inputSchema).toMatchObject({ type: "object", required: ["query"] })
    expect((await assistant.listResources()).resources.map((resource) => resource.uri)).toEqual(["twin://profile"])
    await assistant.close()

    const writer = await connectMcp(context.node.url, (await mintMcp(member.client, ["todos.read"])).token)
    expect((await writer.listTools()).tools.map((tool) => tool.name)).toEqual(["todos_list"])
    expect((await writer.listResources()).resources).toEqual([])
    await writer.close()
  })

  it("searches its person's memory, never another's, and writes a mcp activity naming the client", async () => {
    await remember(member, "The member's plumber is called Ada")
    await remember(context.owner, "The owner's plumber is called Bea")
    const minted = await mintMcp(member.client, ["memory.read"], "Kitchen tablet")
    const assistant = await connectMcp(context.node.url, minted.token)
    const answer = await assistant.callTool({ name: "memory_search", arguments: { query: "plumber" } })
    expect(answer.isError).toBeFalsy()
    const { memories } = answer.structuredContent as { memories: Array<{ content: string }> }
    expect(memories.map((memory) => memory.content)).toContain("The member's plumber is called Ada")
    expect(JSON.stringify(answer)).not.toContain("Bea")
    const profile = await assistant.readResource({ uri: "twin://profile" })
    expect(JSON.parse((profile.contents[0] as { text: string }).text)).toMatchObject({
      facts: [],
      timezone: expect.any(String)
    })
    const activity = await run(member.client.api.twin.listActivity({ urlParams: { kind: "mcp", offset: 0 } }))
    expect(activity.map((entry) => entry.summary)).toContain('Kitchen tablet searched memories for "plumber"')
    await assistant.close()
  })

  it("adds a to-do that then shows in GET /api/twin/todos, and stores a memory the twin then finds", async () => {
    const minted = await mintMcp(member.client, ["todos.write", "memory.write"])
    const assistant = await connectMcp(context.node.url, minted.token)
    const added = await assistant.callTool({
      name: "todo_add",
      arguments: { title: "Buy lightbulbs", dueAt: "2031-01-02T09:00:00Z" }
    })
    const { todo } = added.structuredContent as { todo: { id: string; title: string } }
    const todos = await run(member.client.api.twinTime.listTodos({ urlParams: { limit: 100, offset: 0 } }))
    expect(todos.find((found) => found.id === todo.id)).toMatchObject({
      title: "Buy lightbulbs",
      dueAt: "2031-01-02T09:00:00.000Z",
      status: "open"
    })
    const done = await assistant.callTool({ name: "todo_complete", arguments: { id: todo.id } })
    expect(done.structuredContent).toMatchObject({ todo: { id: todo.id, status: "done" } })
    // Another's to-do is not found, as over HTTP: the tool's error result, the route's refusal.
    const theirs = await run(context.owner.client.api.twinTime.createTodo({ payload: { title: "Owner's" } }))
    const refusedCall = await assistant.callTool({ name: "todo_complete", arguments: { id: theirs.id } })
    expect(refusedCall.isError).toBe(true)
    expect(JSON.parse((refusedCall.content as Array<{ text: string }>)[0]!.text)).toMatchObject({ error: "not_found" })

    await assistant.callTool({ name: "memory_store", arguments: { text: "Prefers oat milk", tags: ["food"] } })
    const found = await run(member.client.api.twin.searchMemories({ urlParams: { q: "oat milk", offset: 0 } }))
    expect(found[0]).toMatchObject({ content: "Prefers oat milk", tags: ["food"], kind: "fact" })
    await assistant.close()
  })

  it("adds a repeating event that calendar_list expands, and refuses a bad rule as the route does", async () => {
    const assistant = await connectMcp(
      context.node.url,
      (await mintMcp(member.client, ["calendar.read", "calendar.write"])).token
    )
    const added = await assistant.callTool({
      name: "event_add",
      arguments: { title: "Stand-up", startAt: "2031-03-02T09:00:00Z", rrule: "FREQ=DAILY;COUNT=3" }
    })
    expect(added.structuredContent).toMatchObject({ event: { title: "Stand-up", recurrence: "FREQ=DAILY;COUNT=3" } })
    const listed = await assistant.callTool({
      name: "calendar_list",
      arguments: { from: "2031-03-01T00:00:00Z", to: "2031-03-10T00:00:00Z" }
    })
    const { entries } = listed.structuredContent as { entries: Array<{ title: string; startAt: string }> }
    expect(entries.filter((entry) => entry.title === "Stand-up").map((entry) => entry.startAt)).toEqual([
      "2031-03-02T09:00:00.000Z",
      "2031-03-03T09:00:00.000Z",
      "2031-03-04T09:00:00.000Z"
    ])
    const badRule = await assistant.callTool({
      name: "event_add",
      arguments: { title: "Never", startAt: "2031-03-02T09:00:00Z", rrule: "FREQ=SOMETIMES" }
    })
    expect(badRule.isError).toBe(true)
    const tooLong = await rpcError(
      assistant.callTool({
        name: "calendar_list",
        arguments: { from: "2031-01-01T00:00:00Z", to: "2033-01-01T00:00:00Z" }
      })
    )
    expect(tooLong.code).toBe(-32602)
    await assistant.close()
  })

  it("finds and reads its person's files as text", async () => {
    const uploads = join(context.node.dataDir, "uploads", member.being.id)
    mkdirSync(uploads, { recursive: true })
    writeFileSync(join(uploads, "recipe-notes.md"), "# Soup\nOnions first.\n")
    writeFileSync(join(uploads, "recipe-photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]))
    const assistant = await connectMcp(context.node.url, (await mintMcp(member.client, ["files.read"])).token)
    const found = await assistant.callTool({ name: "files_search", arguments: { query: "recipe" } })
    const { files } = found.structuredContent as { files: Array<{ id: string; name: string }> }
    expect(files.map((file) => file.name).sort()).toEqual(["recipe-notes.md", "recipe-photo.png"])
    const notes = await assistant.callTool({
      name: "file_read",
      arguments: { id: files.find((file) => file.name === "recipe-notes.md")!.id }
    })
    expect(notes.structuredContent).toMatchObject({ content: "# Soup\nOnions first.\n" })
    const photo = await assistant.callTool({
      name: "file_read",
      arguments: { id: files.find((file) => file.name === "recipe-photo.png")!.id }
    })
    expect(photo.isError).toBe(true)
    expect((photo.content as Array<{ text: string }>)[0]!.text).toContain("not_text")
    await assistant.close()
  })

  it("answers a call outside the grants, an unknown tool and bad arguments as JSON-RPC errors", async () => {
    const assistant = await connectMcp(context.node.url, (await mintMcp(member.client, ["todos.write"])).token)
    const outside = await rpcError(assistant.callTool({ name: "memory_search", arguments: { query: "x" } }))
    expect(outside.code).toBe(-32602)
    expect(outside.message).toContain("memory.read")
    expect((await rpcError(assistant.callTool({ name: "rm_rf", arguments: {} }))).code).toBe(-32602)
    const bad = await rpcError(assistant.callTool({ name: "todo_add", arguments: { title: "", dueAt: "tomorrow" } }))
    expect(bad.code).toBe(-32602)
    const tooLong = await rpcError(assistant.callTool({ name: "todo_add", arguments: { title: "x".repeat(201) } }))
    expect(tooLong.code).toBe(-32602)
    const todos = await run(member.client.api.twinTime.listTodos({ urlParams: { limit: 500, offset: 0 } }))
    expect(todos.some((todo) => todo.title === "")).toBe(false)
    await assistant.close()
  })

  it("stops a revoked token at once, mid-session", async () => {
    const minted = await mintMcp(member.client, ["todos.read"])
    const assistant = await connectMcp(context.node.url, minted.token)
    await assistant.callTool({ name: "todos_list", arguments: {} })
    await run(member.client.api.mcpClients.revoke({ path: { id: minted.id } }))
    await expect(assistant.callTool({ name: "todos_list", arguments: {} })).rejects.toThrow()
    await expect(connectMcp(context.node.url, minted.token)).rejects.toThrow()
    const again = await refused(member.client.api.mcpClients.revoke({ path: { id: minted.id } }))
    expect(again.status).toBe(404)
  })

  it("refuses a cookie alone, a wrong token, a foreign Origin, another client's session and a wrong body type", async () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } }
    }
    const accept = { accept: "application/json, text/event-stream" }
    // The member's browser holds a live session cookie; it counts for nothing here.
    const cookieOnly = await member.client.raw("POST", "/api/mcp", initialize, accept)
    expect(cookieOnly.status).toBe(401)
    expect(cookieOnly.headers["www-authenticate"]).toContain("Bearer")
    const wrong = await member.client.raw("POST", "/api/mcp", initialize, {
      ...accept,
      authorization: "Bearer pmcp_nope"
    })
    expect(wrong.status).toBe(401)

    const minted = await mintMcp(member.client, ["memory.read"])
    const bearer = { ...accept, authorization: `Bearer ${minted.token}`, cookie: "" }
    const opened = await member.client.raw("POST", "/api/mcp", initialize, bearer)
    expect(opened.status).toBe(200)
    const sessionId = opened.headers["mcp-session-id"]!
    expect(sessionId).toBeTruthy()
    for (const method of ["POST", "GET"] as const) {
      const foreign = await member.client.raw(method, "/api/mcp", method === "POST" ? initialize : undefined, {
        ...bearer,
        origin: "http://rebound.example:8080"
      })
      expect(foreign.status).toBe(403)
    }
    const other = await mintMcp(member.client, ["memory.read"])
    const stolen = await member.client.raw(
      "POST",
      "/api/mcp",
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { ...bearer, authorization: `Bearer ${other.token}`, "mcp-session-id": sessionId }
    )
    expect(stolen.status).toBe(404)
    const listed = await member.client.raw(
      "POST",
      "/api/mcp",
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      { ...bearer, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-11-25" }
    )
    expect(listed.status).toBe(200)
    const asText = await fetch(`${context.node.url}/api/mcp`, {
      method: "POST",
      headers: { ...bearer, "content-type": "text/plain" },
      body: JSON.stringify(initialize)
    })
    expect(asText.status).toBe(415)
    const huge = await fetch(`${context.node.url}/api/mcp`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ ...initialize, padding: "x".repeat(2 * 1024 * 1024) })
    })
    expect(huge.status).toBe(413)
  })

  it("counts /api/mcp in its own rate class, mcp", async () => {
    const address = { "x-forwarded-for": "10.251.0.1", accept: "application/json, text/event-stream" }
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list" }
    const answers = await Promise.all(
      Array.from({ length: 241 }, () => member.client.raw("POST", "/api/mcp", body, { ...address, cookie: "" }))
    )
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(240)
    const over = answers.find((answer) => answer.status === 429)!
    expect(over.body).toMatchObject({ error: "rate_limited", details: { class: "mcp" } })
  })
})

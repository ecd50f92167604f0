/**
 * To-dos through real HTTP: every route and move of the second document (create, read, patch,
 * complete, defer with its +24 h default and count, drop, delete), the list's order and status
 * filter, and the refusals: bad ids and statuses (400), another being's to-do and a missing one
 * (404, the same answer), no session (401).
 */
import { beforeAll, describe, expect, it } from "vitest"
import { Todo } from "../../extensions/time/contract/todos.ts"
import { expectOffsetPages } from "../support/offset-pages.ts"
import {
  apiError,
  bodyAs,
  Client,
  nodeWithOwner,
  refused,
  registerMember,
  run,
  type Registered
} from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

const create = (client: Client, payload: Parameters<Client["api"]["twinTime"]["createTodo"]>[0]["payload"]) =>
  run(client.api.twinTime.createTodo({ payload }))

const list = (
  client: Client,
  urlParams: { status?: ReadonlyArray<"open" | "done" | "deferred" | "dropped">; limit?: number } = {}
) => run(client.api.twinTime.listTodos({ urlParams: { limit: 100, offset: 0, ...urlParams } }))

describe("to-dos", () => {
  it("creates one with its defaults and reads it back", async () => {
    const before = Date.now()
    // The typed client refuses untrimmed text before it leaves; a browser's form may send it.
    const answer = await member.client.raw("POST", "/api/twin/todos", { title: "  Call the plumber  " })
    expect(answer.status).toBe(200)
    const todo = bodyAs(Todo, answer)
    expect(todo).toMatchObject({
      beingId: member.being.id,
      title: "Call the plumber",
      notes: "",
      status: "open",
      priority: "normal",
      dueAt: null,
      completedAt: null,
      projectId: null,
      memoryId: null,
      deferredCount: 0
    })
    expect(Date.parse(todo.createdAt)).toBeGreaterThanOrEqual(before - 1000)
    expect(await run(member.client.api.twinTime.getTodo({ path: { id: todo.id } }))).toEqual(todo)
  })

  it("patches only what is given, and a null clears a due date", async () => {
    const todo = await create(member.client, {
      title: "Draft",
      notes: "n",
      dueAt: "2031-05-01T10:00:00+02:00",
      priority: "high"
    })
    expect(todo.dueAt).toBe("2031-05-01T08:00:00.000Z")
    const renamed = await run(
      member.client.api.twinTime.patchTodo({ path: { id: todo.id }, payload: { title: "Final" } })
    )
    expect(renamed).toMatchObject({ title: "Final", notes: "n", priority: "high", dueAt: "2031-05-01T08:00:00.000Z" })
    const cleared = await run(
      member.client.api.twinTime.patchTodo({ path: { id: todo.id }, payload: { dueAt: null, memoryId: "m-1" } })
    )
    expect(cleared).toMatchObject({ title: "Final", dueAt: null, memoryId: "m-1" })
  })

  it("completes, defers (24 hours on by default, counting each) and drops", async () => {
    const todo = await create(member.client, { title: "Moves" })
    const done = await run(member.client.api.twinTime.completeTodo({ path: { id: todo.id } }))
    expect(done.status).toBe("done")
    expect(done.completedAt).not.toBeNull()

    const asked = Date.now()
    const deferred = await run(member.client.api.twinTime.deferTodo({ path: { id: todo.id }, payload: {} }))
    expect(deferred).toMatchObject({ status: "deferred", deferredCount: 1, completedAt: null })
    const dayOn = Date.parse(deferred.dueAt!) - asked
    expect(dayOn).toBeGreaterThan(24 * 3_600_000 - 5_000)
    expect(dayOn).toBeLessThan(24 * 3_600_000 + 5_000)

    const again = await run(
      member.client.api.twinTime.deferTodo({ path: { id: todo.id }, payload: { dueAt: "2032-01-01T09:00:00Z" } })
    )
    expect(again).toMatchObject({ status: "deferred", deferredCount: 2, dueAt: "2032-01-01T09:00:00.000Z" })

    const dropped = await run(member.client.api.twinTime.dropTodo({ path: { id: todo.id } }))
    expect(dropped).toMatchObject({ status: "dropped", deferredCount: 2 })
  })

  it("lists due soonest first, undated last, then newest; filters by a comma list of statuses", async () => {
    const { client } = await registerMember(context.node, context.owner.client)
    const undatedOld = await create(client, { title: "undated old" })
    const late = await create(client, { title: "late", dueAt: "2031-03-01T00:00:00Z" })
    const undatedNew = await create(client, { title: "undated new" })
    const soon = await create(client, { title: "soon", dueAt: "2031-01-01T00:00:00Z" })
    expect((await list(client)).map((todo) => todo.title)).toEqual(["soon", "late", "undated new", "undated old"])

    await run(client.api.twinTime.completeTodo({ path: { id: late.id } }))
    await run(client.api.twinTime.dropTodo({ path: { id: undatedOld.id } }))
    expect((await list(client, { status: ["open"] })).map((todo) => todo.id)).toEqual([soon.id, undatedNew.id])
    expect((await list(client, { status: ["done", "dropped"] })).map((todo) => todo.id)).toEqual([
      late.id,
      undatedOld.id
    ])
    const raw = await client.raw("GET", "/api/twin/todos?status=open,dropped&limit=1")
    expect(raw.status).toBe(200)
    expect((raw.body as Array<{ id: string }>).map((todo) => todo.id)).toEqual([soon.id])
  })

  it("deletes one; it is gone", async () => {
    const todo = await create(member.client, { title: "Gone soon" })
    expect(await run(member.client.api.twinTime.deleteTodo({ path: { id: todo.id } }))).toEqual({ ok: true })
    expect((await refused(member.client.api.twinTime.getTodo({ path: { id: todo.id } }))).status).toBe(404)
    expect((await refused(member.client.api.twinTime.deleteTodo({ path: { id: todo.id } }))).status).toBe(404)
  })

  it("pages by `offset` in the list's order: two pages are the list read at once; a bad offset is 400", async () => {
    const reader = await registerMember(context.node, context.owner.client)
    const soon = "2031-05-01T09:00:00.000Z"
    // Two due at the same moment and two undated: the order's tie-breaks decide between them.
    for (const [title, dueAt] of [
      ["later", "2031-06-01T09:00:00.000Z"],
      ["soon a", soon],
      ["undated a", null],
      ["soon b", soon],
      ["undated b", null]
    ] as const) {
      await create(reader.client, { title, dueAt })
    }
    const whole = await expectOffsetPages(reader.client, "/api/twin/todos?status=open", 2, 5)
    const all = await list(reader.client, { status: ["open"] })
    expect(all.map((todo) => todo.id).slice(0, 4)).toEqual(whole)
    // Due soonest first, undated last (between two of one moment: newest created, then the id).
    const titles = all.map((todo) => todo.title)
    expect([...titles.slice(0, 2).sort(), titles[2], ...titles.slice(3).sort()]).toEqual([
      "soon a",
      "soon b",
      "later",
      "undated a",
      "undated b"
    ])
  })
})

describe("to-do refusals", () => {
  it("answers another being's to-do as missing on every route, and changes nothing", async () => {
    const mine = await create(context.owner.client, { title: "The owner's" })
    const api = member.client.api.twinTime
    const path = { id: mine.id }
    const answers = await Promise.all([
      refused(api.getTodo({ path })),
      refused(api.patchTodo({ path, payload: { title: "stolen" } })),
      refused(api.completeTodo({ path })),
      refused(api.deferTodo({ path, payload: {} })),
      refused(api.dropTodo({ path })),
      refused(api.deleteTodo({ path })),
      refused(api.getTodo({ path: { id: "no-such-todo" } }))
    ])
    for (const answer of answers) expect(answer).toMatchObject({ status: 404, body: { error: "not_found" } })
    expect(await run(context.owner.client.api.twinTime.getTodo({ path }))).toEqual(mine)
    expect((await list(member.client)).some((todo) => todo.id === mine.id)).toBe(false)
  })

  it("refuses a bad status in the list, a bad id, a bad date and a missing title with 400", async () => {
    const client = member.client
    const badStatus = await client.raw("GET", "/api/twin/todos?status=open,finished")
    expect(badStatus.status).toBe(400)
    expect(apiError(badStatus)).toMatchObject({ error: "invalid_request" })
    expect(JSON.stringify(apiError(badStatus).details)).toContain("finished")
    expect((await client.raw("GET", "/api/twin/todos?limit=0")).status).toBe(400)
    expect((await client.raw("GET", "/api/twin/todos/not%20an%20id")).status).toBe(400)
    expect((await client.raw("POST", "/api/twin/todos/not%20an%20id/complete")).status).toBe(400)
    expect((await client.raw("POST", "/api/twin/todos", { title: "x", dueAt: "next tuesday" })).status).toBe(400)
    expect((await client.raw("POST", "/api/twin/todos", { title: "   " })).status).toBe(400)
    expect((await client.raw("POST", "/api/twin/todos", { title: "x", priority: "whenever" })).status).toBe(400)
    const mine = await create(client, { title: "Stays" })
    expect((await client.raw("POST", `/api/twin/todos/${mine.id}/defer`, { dueAt: "soon" })).status).toBe(400)
    expect(await run(client.api.twinTime.getTodo({ path: { id: mine.id } }))).toEqual(mine)
  })

  it("needs a session", async () => {
    const stranger = new Client(context.node.url)
    expect((await stranger.raw("GET", "/api/twin/todos")).status).toBe(401)
    expect((await stranger.raw("POST", "/api/twin/todos", { title: "x" })).status).toBe(401)
  })
})

/**
 * Modules and the bridge on a real node: the Notebook example installed as its author would,
 * its module listed, its document served sandboxed with the bridge put in, and
 * POST /api/modules/:id/:extensionId/call answering within the module's uses ∩ its grant, for
 * the session's being only, refusing everything else with its status and code.
 */
import { cpSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { skillsMain, writePluginFolder } from "../support/plugin-folder.ts"

const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")
const notebook = encodeURIComponent("@example/notebook")

let node: TestNode
let owner: Registered
let member: Registered

/** A plugin granted signals whose module does not use them: the module may not raise. */
const writeNarrow = () => {
  writePluginFolder(
    join(node.dataDir, "plugins"),
    "narrow",
    {
      capabilities: [{ kind: "storage" }, { kind: "signals" }],
      extensions: [
        { kind: "skill", id: "ping", uses: ["signals"] },
        { kind: "module", id: "page", title: "Narrow", uses: ["storage"], document: "page.html" }
      ]
    },
    skillsMain({ ping: "return { pong: true }" })
  )
  cpSync(join(example, "module", "notes.html"), join(node.dataDir, "plugins", "narrow", "page.html"))
}

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  cpSync(example, join(node.dataDir, "plugins", "notebook"), { recursive: true })
  writeNarrow()
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "notebook", granted: ["filesystem", "storage"] } })
  )
  await run(owner.client.api.plugins.installPlugin({ payload: { dir: "narrow", granted: ["storage", "signals"] } }))
})
afterAll(() => node.close())

const call = (who: Registered, method: string, args: unknown, id = notebook, extensionId = "notes") =>
  who.client.api.modules.callModule({ path: { id, extensionId }, payload: { method, args } })

describe("a plugin's module", () => {
  it("is listed with the plugin's contributions, with its title and icon", async () => {
    const plugins = await run(member.client.api.plugins.listPlugins())
    const contributions = plugins.find((plugin) => plugin.id === "@example/notebook")?.contributions
    expect(contributions).toContainEqual({
      kind: "module",
      name: "notebook.notes",
      title: "Notebook",
      icon: expect.stringMatching(/^M17,4V10/)
    })
  })

  it("serves its document sandboxed, without network, without referrer, with the bridge put in", async () => {
    const answer = await member.client.raw("GET", `/api/modules/${notebook}/notes/document`)
    expect(answer.status).toBe(200)
    expect(answer.headers["content-type"]).toMatch(/^text\/html/)
    const policy = answer.headers["content-security-policy"]!.split(";").map((part) => part.trim())
    expect(policy).toEqual(
      expect.arrayContaining(["default-src 'none'", "connect-src 'none'", "sandbox allow-scripts"])
    )
    expect(policy.some((part) => part.includes("allow-same-origin"))).toBe(false)
    expect(answer.headers["referrer-policy"]).toBe("no-referrer")
    const text = answer.text
    expect(text.indexOf("nodeBridge")).toBeGreaterThan(text.indexOf("<head>"))
    expect(text).toContain("<h1>Notebook</h1>")
  })

  it("serves no document without a session, nor for what is not a module", async () => {
    const stranger = await fetch(`${node.url}/api/modules/${notebook}/notes/document`)
    expect(stranger.status).toBe(401)
    expect((await member.client.raw("GET", `/api/modules/${notebook}/jot/document`)).status).toBe(404)
    expect(
      (await member.client.raw("GET", `/api/modules/${encodeURIComponent("@example/nothing")}/notes/document`)).status
    ).toBe(404)
  })
})

describe("POST /api/modules/:id/:extensionId/call", () => {
  it("keeps each being's storage apart", async () => {
    expect(await run(call(owner, "storage.set", { key: "filter", value: "errands" }))).toEqual({
      result: { key: "filter" }
    })
    expect(await run(call(owner, "storage.get", { key: "filter" }))).toEqual({
      result: { key: "filter", value: "errands" }
    })
    expect(await run(call(member, "storage.get", { key: "filter" }))).toEqual({
      result: { key: "filter", value: null }
    })
    await run(call(owner, "storage.set", { key: "seen", value: { times: 2 } }))
    expect(await run(call(owner, "storage.list", {}))).toEqual({ result: { keys: ["filter", "seen"] } })
    expect(await run(call(owner, "storage.delete", { key: "seen" }))).toEqual({ result: { deleted: true } })
    expect(await run(call(member, "storage.delete", { key: "filter" }))).toEqual({ result: { deleted: false } })
    expect(await run(call(owner, "storage.list", { prefix: "f" }))).toEqual({ result: { keys: ["filter"] } })
  })

  it("keeps each plugin's storage apart", async () => {
    expect(
      await run(call(owner, "storage.get", { key: "filter" }, encodeURIComponent("@test/narrow"), "page"))
    ).toEqual({ result: { key: "filter", value: null } })
  })

  it("runs the plugin's own skills as the session's being", async () => {
    const jotted = await run(call(member, "skills.invoke", { skill: "jot", input: { text: "From the page" } }))
    expect(jotted).toEqual({ result: { ok: true, output: { saved: true, count: 1 } } })
    const recent = await run(call(member, "skills.invoke", { skill: "recent", input: {} }))
    expect(recent.result).toMatchObject({ ok: true, output: { notes: [{ text: "From the page" }] } })
    const owners = await run(call(owner, "skills.invoke", { skill: "recent", input: {} }))
    expect(owners.result).toMatchObject({ ok: true, output: { notes: [] } })
  })

  it("refuses a method outside the module's uses, though its plugin holds the grant", async () => {
    const narrow = encodeURIComponent("@test/narrow")
    const raise = await refused(call(owner, "signals.raise", { title: "Hello" }, narrow, "page"))
    expect(raise).toMatchObject({ status: 403, body: { error: "not_granted", details: { missing: ["signals"] } } })
    const ping = await refused(call(owner, "skills.invoke", { skill: "ping" }, narrow, "page"))
    expect(ping).toMatchObject({ status: 403, body: { error: "not_granted", details: { missing: ["signals"] } } })
    expect((await refused(call(owner, "memory.search", { query: "x" }))).status).toBe(403)
    expect((await refused(call(owner, "skills.invoke", { skill: "nope" }))).status).toBe(404)
  })

  it("refuses an unknown plugin or module with 404", async () => {
    const unknownPlugin = await refused(
      call(owner, "storage.get", { key: "a" }, encodeURIComponent("@example/nothing"))
    )
    expect(unknownPlugin).toMatchObject({ status: 404, body: { error: "unknown_module" } })
    expect((await refused(call(owner, "storage.get", { key: "a" }, notebook, "missing"))).status).toBe(404)
    // A skill is not a module.
    expect((await refused(call(owner, "storage.get", { key: "a" }, notebook, "jot"))).status).toBe(404)
  })

  it("refuses a method outside the allowlist and args of the wrong shape with 400, changing nothing", async () => {
    const unknown = await refused(call(owner, "process.spawn", { command: "sh" }))
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: "unknown_method", details: { methods: expect.arrayContaining(["storage.get"]) } }
    })
    expect(await refused(call(owner, "storage.set", { key: "", value: 1 }))).toMatchObject({
      status: 400,
      body: { error: "invalid_request" }
    })
    expect(await refused(call(owner, "storage.set", { key: "k", value: 1, beingId: member.being.id }))).toMatchObject({
      status: 400
    })
    expect(await refused(call(owner, "storage.get", "filter"))).toMatchObject({ status: 400 })
    expect(await run(call(owner, "storage.list", {}))).toEqual({ result: { keys: ["filter"] } })
  })

  it("bounds args and stored values", async () => {
    const big = "x".repeat(40 * 1024)
    expect(await refused(call(owner, "storage.set", { key: "big", value: big }))).toMatchObject({ status: 413 })
    const value = "x".repeat(20 * 1024)
    expect(await refused(call(owner, "storage.set", { key: "big", value }))).toMatchObject({ status: 413 })
    expect(await run(call(owner, "storage.get", { key: "big" }))).toEqual({ result: { key: "big", value: null } })
  })

  it("needs a session", async () => {
    const answer = await fetch(`${node.url}/api/modules/${notebook}/notes/call`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ method: "storage.get", args: { key: "filter" } })
    })
    expect(answer.status).toBe(401)
  })

  it("forgets the plugin's storage when the plugin is uninstalled", async () => {
    const narrow = encodeURIComponent("@test/narrow")
    await run(call(owner, "storage.set", { key: "kept", value: true }, narrow, "page"))
    await run(owner.client.api.plugins.uninstallPlugin({ path: { id: narrow } }))
    expect((await refused(call(owner, "storage.get", { key: "kept" }, narrow, "page"))).status).toBe(404)
    writeNarrow()
    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "narrow", granted: ["storage", "signals"] } }))
    expect(await run(call(owner, "storage.get", { key: "kept" }, narrow, "page"))).toEqual({
      result: { key: "kept", value: null }
    })
  })
})

/**
 * What a hostile plugin would try, each through the real install and invoke routes: read the
 * environment and files, spawn a process, open a socket, exit the process, block the event loop,
 * allocate without bound, call an ungranted adapter, climb prototypes to the host. Each is refused
 * or contained, and the node answers after each.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { refused, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { skillMain, skillsMain, writePluginFolder } from "../support/plugin-folder.ts"

let node: TestNode
let owner: Registered
let pluginDir: string

const secret = "the-node's-own-secret"

beforeAll(async () => {
  process.env.HOSTILE_TEST_SECRET = secret
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  pluginDir = join(node.dataDir, "plugins")
  owner = await registerOwner(node)
  writeFileSync(join(node.dataDir, "secret.json"), JSON.stringify({ secret }))
})
afterAll(async () => {
  delete process.env.HOSTILE_TEST_SECRET
  await node.close()
})

const install = (dir: string, granted: ReadonlyArray<"filesystem" | "signals" | "memory" | "network"> = []) =>
  owner.client.api.plugins.installPlugin({ payload: { dir, granted } })

const invoke = (name: string) => run(owner.client.api.studioSkills.invokeSkill({ payload: { name, input: {} } }))

const pluginNamed = async (id: string) =>
  (await run(owner.client.api.plugins.listPlugins())).find((plugin) => plugin.id === id)

/** The node still answers: a built-in skill runs and the listing comes back. */
const nodeAnswers = async () => {
  expect(await invoke("math.evaluate_missing").catch(() => "unknown")).toBe("unknown")
  expect(
    await run(
      owner.client.api.studioSkills.invokeSkill({ payload: { name: "math.evaluate", input: { expression: "1 + 1" } } })
    )
  ).toMatchObject({ ok: true, output: { value: 2 } })
}

describe("a hostile plugin's code at run time", () => {
  beforeAll(async () => {
    writePluginFolder(
      pluginDir,
      "snoop",
      {
        capabilities: [{ kind: "filesystem" }],
        extensions: ["env", "files", "spawn", "socket", "exit", "ungranted", "climb", "stash", "replay", "flood"].map(
          (id) => ({ kind: "skill", id, uses: ["stash", "replay", "flood"].includes(id) ? ["filesystem"] : [] })
        )
      },
      skillsMain({
        env: "return process.env.HOSTILE_TEST_SECRET",
        files: `const name = "node:fs"; return require(name).readFileSync("/etc/passwd", "utf8")`,
        spawn: `const name = "node:child_process"; return require(name).execSync("id").toString()`,
        socket: `return [typeof fetch, typeof WebSocket, typeof XMLHttpRequest, typeof net].join(",") + new WebSocket("ws://127.0.0.1:1")`,
        exit: "process.exit(1)",
        ungranted: "return context.adapters.network.get({ url: 'http://127.0.0.1:1', maxBytes: 10, timeoutMs: 100 })",
        climb: `
        const viaConstructor = this?.constructor?.constructor?.("return typeof process")?.() ?? "no this"
        const viaFunction = Function("return typeof globalThis.process")()
        const viaObject = ({}).constructor.constructor("return [typeof require, typeof $host, typeof __pluginGuest]")()
        Object.prototype.pollutedByPlugin = "yes"
        return [viaConstructor, viaFunction, ...viaObject].join(",")`,
        stash: "globalThis.stashed = context.adapters.filesystem; return 'kept'",
        replay: "return globalThis.stashed.write('stolen.txt', 'from another call')",
        flood: `
        const answers = await Promise.allSettled([...Array(500).keys()].map(() => context.adapters.filesystem.list()))
        return [...new Set(answers.map((answer) => answer.status === "fulfilled" ? "answered" : answer.reason.message))]`
      })
    )
    await run(install("snoop", ["filesystem"]))
  })

  it("cannot read the environment", async () => {
    expect(await invoke("snoop.env")).toMatchObject({
      ok: false,
      error: expect.stringContaining("process is not defined")
    })
    await nodeAnswers()
  })

  it("cannot read files, spawn a process or open a socket", async () => {
    expect(await invoke("snoop.files")).toMatchObject({
      ok: false,
      error: expect.stringContaining('Dynamic require of "node:fs" is not supported')
    })
    expect(await invoke("snoop.spawn")).toMatchObject({
      ok: false,
      error: expect.stringContaining('Dynamic require of "node:child_process" is not supported')
    })
    expect(await invoke("snoop.socket")).toMatchObject({ ok: false, error: expect.stringContaining("is not defined") })
    await nodeAnswers()
  })

  it("cannot exit the process", async () => {
    expect(await invoke("snoop.exit")).toMatchObject({
      ok: false,
      error: expect.stringContaining("process is not defined")
    })
    await nodeAnswers()
  })

  it("holds no adapter it was not granted", async () => {
    const answer = await invoke("snoop.ungranted")
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("Cannot read properties of undefined") })
    await nodeAnswers()
  })

  it("reaches nothing of the host by climbing prototypes, and pollutes only its own", async () => {
    expect(await invoke("snoop.climb")).toEqual(
      expect.objectContaining({
        ok: true,
        output: "no this,undefined,undefined,undefined,undefined"
      })
    )
    expect(({} as Record<string, unknown>).pollutedByPlugin).toBeUndefined()
    await nodeAnswers()
  })

  it("cannot flood the node with adapter calls", async () => {
    const answer = await invoke("snoop.flood")
    expect(answer).toMatchObject({
      ok: true,
      output: expect.arrayContaining(["answered", expect.stringContaining("adapter calls at once")])
    })
    await nodeAnswers()
  })

  it("cannot keep an adapter past its call", async () => {
    expect(await invoke("snoop.stash")).toMatchObject({ ok: true, output: "kept" })
    expect(await invoke("snoop.replay")).toMatchObject({
      ok: false,
      error: expect.stringContaining("This call has ended")
    })
    expect(await pluginNamed("@test/snoop")).toMatchObject({ status: "active" })
  })
})

describe("a hostile plugin's code at install", () => {
  it("cannot bundle a file outside its folder, directly or through a symlink, nor a Node built-in", async () => {
    writePluginFolder(
      pluginDir,
      "reader",
      { extensions: [{ kind: "skill", id: "read", uses: [] }] },
      skillMain("read", "return secret", { preamble: `import secret from "../../secret.json"` })
    )
    const outside = await refused(install("reader"))
    expect(outside).toMatchObject({ status: 400, body: { error: "activation_failed" } })
    expect(outside.body.message).toContain("outside the plugin folder")
    expect(outside.body.message).not.toContain(node.dataDir)

    writePluginFolder(
      pluginDir,
      "linker",
      { extensions: [{ kind: "skill", id: "read", uses: [] }] },
      skillMain("read", "return secret", { preamble: `import secret from "./data/secret.json"` })
    )
    mkdirSync(join(pluginDir, "linker", "data"))
    symlinkSync(join(node.dataDir, "secret.json"), join(pluginDir, "linker", "data", "secret.json"))
    expect((await refused(install("linker"))).body.message).toContain("outside the plugin folder")

    writePluginFolder(
      pluginDir,
      "spawner",
      { extensions: [{ kind: "skill", id: "run", uses: [] }] },
      skillMain("run", "return execSync('id').toString()", {
        preamble: `import { execSync } from "node:child_process"`
      })
    )
    expect((await refused(install("spawner"))).body.message).toContain(`Could not resolve "node:child_process"`)

    const listed = (await run(owner.client.api.plugins.listPlugins())).map((plugin) => plugin.id)
    expect(listed).not.toEqual(expect.arrayContaining(["@test/reader"]))
    expect(listed.some((id) => ["@test/reader", "@test/linker", "@test/spawner"].includes(id))).toBe(false)
    await nodeAnswers()
  })
})

describe("a hostile plugin that loops or allocates", () => {
  it("is stopped when it blocks in a loop, while the node goes on answering meanwhile", async () => {
    writePluginFolder(
      pluginDir,
      "blocker",
      { extensions: [{ kind: "skill", id: "block", uses: [] }] },
      skillMain("block", "for (;;) {}", { timeoutMs: 1500 })
    )
    await run(install("blocker"))
    const blocking = invoke("blocker.block")
    // While the plugin's isolate spins, the node's own event loop is free.
    await nodeAnswers()
    expect(await blocking).toMatchObject({ ok: false })
    // Stopped by its own timeout, or by the watchdog at most 0.5 s after the call answered.
    await expect.poll(async () => (await pluginNamed("@test/blocker"))?.status).toBe("error")
    expect((await pluginNamed("@test/blocker"))?.error).toContain("time limit")
    await nodeAnswers()
  })

  it("is stopped by the host's watchdog when it loops after waiting on the host", async () => {
    writePluginFolder(
      pluginDir,
      "sleeper",
      {
        capabilities: [{ kind: "filesystem" }],
        extensions: [{ kind: "skill", id: "block", uses: ["filesystem"] }]
      },
      skillMain("block", "await context.adapters.filesystem.list(); for (;;) {}", { timeoutMs: 500 })
    )
    await run(install("sleeper", ["filesystem"]))
    expect(await invoke("sleeper.block")).toMatchObject({ ok: false })
    await expect.poll(async () => (await pluginNamed("@test/sleeper"))?.status).toBe("error")
    await nodeAnswers()
  })

  it("is stopped when it allocates without bound", async () => {
    writePluginFolder(
      pluginDir,
      "hoarder",
      { extensions: [{ kind: "skill", id: "hoard", uses: [] }] },
      skillMain("hoard", "const kept = []; for (;;) kept.push(new Array(1e6).fill(7))")
    )
    await run(install("hoarder"))
    expect(await invoke("hoarder.hoard")).toMatchObject({ ok: false, error: expect.stringContaining("memory") })
    const listed = await pluginNamed("@test/hoarder")
    expect(listed).toMatchObject({ status: "error" })
    expect(listed?.error).toContain("MB of memory")
    await nodeAnswers()
  })
})

import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { refused, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { skillMain, writePluginFolder } from "../support/plugin-folder.ts"

let node: TestNode
let owner: Registered
let pluginDir: string

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  pluginDir = join(node.dataDir, "plugins")
  owner = await registerOwner(node)
})
afterAll(() => node.close())

const install = (dir: string, granted: ReadonlyArray<"filesystem" | "signals" | "memory" | "network">) =>
  run(owner.client.api.plugins.installPlugin({ payload: { dir, granted } }))

const invoke = (name: string, input: Record<string, unknown> = {}) =>
  run(owner.client.api.studioSkills.invokeSkill({ payload: { name, input } }))

const pluginNamed = async (id: string) =>
  (await run(owner.client.api.plugins.listPlugins())).find((plugin) => plugin.id === id)

describe("a third-party plugin's code runs in an isolate of its own", () => {
  it("sees no process, require or network, and holds exactly the adapters its extension uses of its grants", async () => {
    writePluginFolder(
      pluginDir,
      "looker",
      {
        capabilities: [{ kind: "filesystem" }, { kind: "signals" }],
        extensions: [{ kind: "skill", id: "look", uses: ["filesystem"] }]
      },
      skillMain(
        "look",
        `
      const written = await context.adapters.filesystem.write("notes/today.txt", "tea at four")
      return {
        globals: [typeof process, typeof fetch, typeof setInterval, typeof WebSocket].join(","),
        require: (() => { try { const name = "node:fs"; require(name); return "loaded" } catch (error) { return "refused" } })(),
        adapters: Object.keys(context.adapters),
        operations: Object.keys(context.adapters.filesystem).sort(),
        read: await context.adapters.filesystem.read("notes/today.txt"),
        listed: await context.adapters.filesystem.list("notes"),
        written,
        being: context.beingId === ${JSON.stringify("")} ? "none" : "some"
      }`
      )
    )
    await install("looker", ["filesystem", "signals"])
    const answer = await invoke("looker.look")
    expect(answer).toMatchObject({
      ok: true,
      output: {
        globals: "undefined,undefined,undefined,undefined",
        require: "refused",
        adapters: ["filesystem"],
        operations: ["list", "read", "remove", "write"],
        read: "tea at four",
        listed: [{ name: "today.txt", kind: "file" }],
        written: { path: "notes/today.txt", size: 11, created: true },
        being: "some"
      }
    })
    // The plugin's data folder, and nowhere else.
    expect(readFileSync(join(node.dataDir, "plugin-data", "looker", "notes", "today.txt"), "utf8")).toBe("tea at four")
  })

  it("confines its files to its data folder", async () => {
    writePluginFolder(
      pluginDir,
      "climber",
      {
        capabilities: [{ kind: "filesystem" }],
        extensions: [{ kind: "skill", id: "climb", uses: ["filesystem"] }]
      },
      skillMain(
        "climb",
        `
      const tried = []
      for (const path of ["../looker/notes/today.txt", "/etc/passwd", "../../plugins/climber/plugin.json"]) {
        tried.push(await context.adapters.filesystem.read(path).then(() => "read", (error) => error.message))
      }
      return tried`
      )
    )
    await install("climber", ["filesystem"])
    const answer = await invoke("climber.climb")
    expect(answer.ok).toBe(true)
    const tried = (answer as { output: ReadonlyArray<string> }).output
    expect(tried).toHaveLength(3)
    expect(tried.every((message) => message !== "read")).toBe(true)
    expect(tried[0]).toContain("climbs out")
    expect(tried[1]).toContain("absolute")
  })

  it("validates input with the plugin's own schema and answers in the built-ins' words", async () => {
    const answer = await invoke("looker.look", { text: 7 })
    expect(answer).toMatchObject({ ok: false, error: expect.stringContaining("The input does not fit looker.look") })
  })

  it("stops a plugin whose call loops, marks it in error in the list, and goes on", async () => {
    writePluginFolder(
      pluginDir,
      "spinner",
      {
        extensions: [{ kind: "skill", id: "spin", uses: [] }]
      },
      skillMain("spin", "for (;;) {}", { timeoutMs: 300 })
    )
    await install("spinner", [])
    const answer = await invoke("spinner.spin")
    expect(answer.ok).toBe(false)
    // Its own timeout stops it, or the watchdog at most 0.5 s after the call answered.
    await expect.poll(async () => (await pluginNamed("@test/spinner"))?.status).toBe("error")
    const listed = await pluginNamed("@test/spinner")
    expect(listed).toMatchObject({ status: "error", contributions: [] })
    expect(listed?.error).toContain("time limit")
    // Its skill is gone; the node and the other plugins answer.
    expect(
      (await refused(owner.client.api.studioSkills.invokeSkill({ payload: { name: "spinner.spin", input: {} } })))
        .status
    ).toBe(404)
    expect(await invoke("math.evaluate", { expression: "6 * 7" })).toMatchObject({ ok: true, output: { value: 42 } })
    expect(await invoke("looker.look")).toMatchObject({ ok: true })
  })

  it("uninstalls: the isolate is gone, and the folder and data folder with it", async () => {
    await run(owner.client.api.plugins.uninstallPlugin({ path: { id: encodeURIComponent("@test/looker") } }))
    expect(existsSync(join(pluginDir, "looker"))).toBe(false)
    expect(existsSync(join(node.dataDir, "plugin-data", "looker"))).toBe(false)
    expect(
      (await refused(owner.client.api.studioSkills.invokeSkill({ payload: { name: "looker.look", input: {} } }))).status
    ).toBe(404)
  })
})

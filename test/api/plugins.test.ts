import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, existsSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiError, refused, registerMember, registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { skillMain, writePluginFolder } from "../support/plugin-folder.ts"

let node: TestNode
let pluginDir: string
let owner: Awaited<ReturnType<typeof registerOwner>>
let member: Awaited<ReturnType<typeof registerMember>>

const storm = {
  colorScheme: "dark",
  tokens: {
    background: "#0f1419",
    surface: "#182028",
    text: "#e6edf3",
    muted: "#9aa7b4",
    accent: "#58a6ff",
    danger: "#ff7b72",
    border: "#2d3742",
    focusRing: "#58a6ff"
  }
}

const writePlugin = (dir: string, manifest: Record<string, unknown>) => {
  mkdirSync(join(pluginDir, dir), { recursive: true })
  writeFileSync(
    join(pluginDir, dir, "plugin.json"),
    JSON.stringify({
      apiVersion: "1.0",
      version: "1.0.0",
      name: dir,
      main: "index.js",
      capabilities: [],
      extensions: [{ kind: "theme", id: "storm", title: "Storm", uses: [] }],
      ...manifest
    })
  )
  writeFileSync(
    join(pluginDir, dir, "index.js"),
    `export const activate = (context) => context.contribute("theme", "storm", ${JSON.stringify(storm)})\n`
  )
}

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  pluginDir = join(node.dataDir, "plugins")
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(() => node.close())

describe("GET /api/plugins", () => {
  it("shows anyone signed in the built-ins and what each contributes", async () => {
    const answer = await run(member.client.api.plugins.listPlugins())
    const themes = answer.find((plugin) => plugin.id === "@svc/themes")
    expect(themes).toMatchObject({ namespace: "themes", source: { kind: "builtin" }, status: "active", error: null })
    expect(themes?.contributions).toEqual(
      expect.arrayContaining([
        { kind: "theme", name: "themes.light", title: "Light" },
        { kind: "theme", name: "themes.dark", title: "Dark" }
      ])
    )
  })
})

describe("installing and removing plugins (owner only)", () => {
  it("lists what is available under the plugin folder without running it, for the owner only", async () => {
    writePlugin("weather", {
      id: "@ada/weather",
      namespace: "weather",
      capabilities: [{ kind: "network", reason: "forecasts" }],
      extensions: [{ kind: "theme", id: "storm", uses: ["network"] }]
    })
    expect((await refused(member.client.api.plugins.availablePlugins())).status).toBe(403)
    const answer = await run(owner.client.api.plugins.availablePlugins())
    expect(typeof answer.risk).toBe("string")
    expect(answer.plugins).toEqual([expect.objectContaining({ dir: "weather", installed: false, error: null })])
  })

  it("refuses an install whose capabilities are not all granted, naming the missing kinds, and installs nothing", async () => {
    const answer = await refused(owner.client.api.plugins.installPlugin({ payload: { dir: "weather", granted: [] } }))
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe("missing_grants")
    expect(answer.body.details).toMatchObject({ missing: ["network"] })
    const listed = await run(owner.client.api.plugins.listPlugins())
    expect(listed.some((plugin) => plugin.id === "@ada/weather")).toBe(false)
  })

  it("refuses a reserved namespace, a taken namespace, a folder outside the plugin folder and a bad body", async () => {
    writePlugin("fake-files", { id: "@eve/files", namespace: "files" })
    const install = (dir: string) => owner.client.api.plugins.installPlugin({ payload: { dir, granted: [] } })
    const reserved = await refused(install("fake-files"))
    expect(reserved.status).toBe(400)
    expect(reserved.body.error).toBe("reserved_namespace")
    writePlugin("more-themes", { id: "@eve/themes", namespace: "themes" })
    const taken = await refused(install("more-themes"))
    expect(taken.status).toBe(409)
    expect(taken.body.error).toBe("namespace_taken")
    const outside = await refused(install("../.."))
    expect(outside.status).toBe(400)
    // A grant the contract's schema refuses before it leaves the typed client: sent raw.
    const bad = await owner.client.raw("POST", "/api/plugins", { dir: "weather", granted: ["telepathy"] })
    expect(bad.status).toBe(400)
    expect(apiError(bad).error).toBe("invalid_request")
    expect(
      (await refused(member.client.api.plugins.installPlugin({ payload: { dir: "weather", granted: ["network"] } })))
        .status
    ).toBe(403)
  })

  it("installs with the grants, lists its contributions, and uninstalls (folder removed)", async () => {
    const installed = await run(
      owner.client.api.plugins.installPlugin({ payload: { dir: "weather", granted: ["network"] } })
    )
    expect(installed).toMatchObject({
      id: "@ada/weather",
      status: "active",
      granted: ["network"],
      source: { kind: "local", dir: "weather" }
    })
    expect(installed.contributions).toEqual([{ kind: "theme", name: "weather.storm" }])
    const listed = await run(member.client.api.plugins.listPlugins())
    expect(listed.map((plugin) => plugin.id)).toContain("@ada/weather")
    // The typed client puts a path parameter in the URL as given: an id with a slash is encoded first.
    const weather = { path: { id: encodeURIComponent("@ada/weather") } }
    expect((await refused(member.client.api.plugins.uninstallPlugin(weather))).status).toBe(403)
    const removed = await run(owner.client.api.plugins.uninstallPlugin(weather))
    expect(removed).toEqual({ removedDir: true })
    expect(existsSync(join(pluginDir, "weather"))).toBe(false)
    expect((await refused(owner.client.api.plugins.uninstallPlugin(weather))).status).toBe(404)
  })

  it("refuses a folder that is a symlink to elsewhere", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "elsewhere-"))
    writePluginFolder(
      elsewhere,
      "real",
      { id: "@eve/elsewhere", namespace: "elsewhere" },
      "export const activate = () => {}\n"
    )
    symlinkSync(join(elsewhere, "real"), join(pluginDir, "linked"))
    const answer = await refused(owner.client.api.plugins.installPlugin({ payload: { dir: "linked", granted: [] } }))
    expect(answer).toMatchObject({ status: 400, body: { error: "outside_plugin_dir" } })
    rmSync(elsewhere, { recursive: true, force: true })
  })

  it("installs all or nothing: a plugin whose activate throws leaves no row, grant or contribution, and installs once fixed", async () => {
    writePluginFolder(
      pluginDir,
      "fickle",
      {
        capabilities: [{ kind: "signals" }],
        extensions: [{ kind: "skill", id: "hello", uses: [] }]
      },
      'export const activate = () => { throw new Error("not today") }\n'
    )
    const answer = await refused(
      owner.client.api.plugins.installPlugin({ payload: { dir: "fickle", granted: ["signals"] } })
    )
    expect(answer).toMatchObject({
      status: 400,
      body: { error: "activation_failed", message: expect.stringContaining("not today") }
    })
    expect((await run(owner.client.api.plugins.listPlugins())).some((plugin) => plugin.id === "@test/fickle")).toBe(
      false
    )
    expect(
      (await refused(owner.client.api.studioSkills.invokeSkill({ payload: { name: "fickle.hello", input: {} } })))
        .status
    ).toBe(404)
    // The same folder, fixed, installs: nothing of the failed attempt stands in the way.
    writePluginFolder(
      pluginDir,
      "fickle",
      {
        capabilities: [{ kind: "signals" }],
        extensions: [{ kind: "skill", id: "hello", uses: [] }]
      },
      skillMain("hello", "return 'hello'")
    )
    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "fickle", granted: ["signals"] } }))
    expect(
      await run(owner.client.api.studioSkills.invokeSkill({ payload: { name: "fickle.hello", input: {} } }))
    ).toMatchObject({ ok: true, output: "hello" })
  })

  it("refuses a second plugin in a namespace another third-party plugin holds", async () => {
    writePluginFolder(
      pluginDir,
      "fickle-too",
      { id: "@eve/fickle", namespace: "fickle" },
      "export const activate = () => {}\n"
    )
    const answer = await refused(
      owner.client.api.plugins.installPlugin({ payload: { dir: "fickle-too", granted: [] } })
    )
    expect(answer).toMatchObject({
      status: 409,
      body: { error: "namespace_taken", details: { namespace: "fickle", by: "@test/fickle" } }
    })
  })

  it("names every missing capability kind, and runs nothing before refusing", async () => {
    writePluginFolder(
      pluginDir,
      "greedy",
      {
        capabilities: [{ kind: "network" }, { kind: "memory" }, { kind: "world-acting", reason: "posts for you" }],
        extensions: [{ kind: "skill", id: "take", uses: ["network"] }]
      },
      "this is not even JavaScript"
    )
    const answer = await refused(
      owner.client.api.plugins.installPlugin({ payload: { dir: "greedy", granted: ["memory"] } })
    )
    expect(answer).toMatchObject({
      status: 400,
      body: { error: "missing_grants", details: { missing: ["network", "world-acting"] } }
    })
    expect(answer.body.message).toContain("network, world-acting")
  })

  it("refuses to uninstall a built-in", async () => {
    const answer = await refused(
      owner.client.api.plugins.uninstallPlugin({ path: { id: encodeURIComponent("@svc/themes") } })
    )
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe("builtin_plugin")
  })
})

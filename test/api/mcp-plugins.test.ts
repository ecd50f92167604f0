/**
 * MCP servers as plugins, through the example in examples/plugins/almanac (a stdio server of its own, in Python):
 * installed through the real route, it runs in the nova sandbox and its tools are skills `almanac.<tool>` with the
 * tools' JSON Schemas, checked before the call; a read-only tool runs directly, a world-acting one waits for the
 * owner's approval and runs after "Do it"; a server that dies shows `error` in GET /api/plugins with why, is started
 * again and its skills come back; a tool it no longer lists is 404 `unknown_skill`; the sandbox holds; a server that
 * cannot start when the node boots shows `error` with why and is started again until it comes up.
 */
import { chmodSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Skills, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import { Client, refused, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { until } from "../support/until.ts"

const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "almanac")

/** Changes the example's server in a copy of its folder (the one place `from` appears), keeping it executable. */
const patchServer = (dir: string, from: string, to: string) => {
  const file = join(dir, "server.py")
  writeFileSync(file, readFileSync(file, "utf8").replace(from, to))
  chmodSync(file, 0o755)
}

let node: TestNode
let owner: Registered
let folder: string

beforeAll(async () => {
  node = await startNode((dataDir) => ({ pluginDir: join(dataDir, "plugins") }))
  owner = await registerOwner(node)
  folder = join(node.dataDir, "plugins", "almanac")
  cpSync(example, folder, { recursive: true })
  // Two test-only branches of the example's `board`: one probes the sandbox from inside, one makes the server die.
  patchServer(
    folder,
    '    if name == "board":',
    `    if name == "board" and arguments.get("crash"):
        os._exit(3)
    if name == "board" and arguments.get("probe"):
        seen = {}
        for label, path in [("node.db", "${node.dataDir}/node.db"), ("/root", "/root"), ("/plugin/server.py", "/plugin/server.py")]:
            try:
                open(path, "rb").read(1) if os.path.isfile(path) else os.listdir(path)
                seen[label] = "read"
            except Exception as error:
                seen[label] = type(error).__name__
        import socket
        try:
            socket.create_connection(("127.0.0.1", ${new URL(node.url).port}), timeout=2)
            seen["network"] = "connected"
        except Exception as error:
            seen["network"] = type(error).__name__
        try:
            open("/plugin/written", "w").write("x")
            seen["plugin folder"] = "written"
        except Exception as error:
            seen["plugin folder"] = type(error).__name__
        return text_result("probed", seen)
    if name == "board":`
  )
})
afterAll(() => node.close())

const invoke = (name: string, input: Record<string, unknown>) =>
  run(owner.client.api.studioSkills.invokeSkill({ payload: { name, input } }))

const invokeUnapproved = (name: string, input: unknown): Promise<SkillOutcome> =>
  node.runtime.runPromise(
    Effect.flatMap(Skills, (skills) => skills.invoke({ name, input, beingId: owner.being.id, approved: false }))
  )

const almanac = async () =>
  (await run(owner.client.api.plugins.listPlugins())).find((plugin) => plugin.id === "@example/almanac")

describe("an MCP server as a plugin", () => {
  it("installs, and lists its tools as skills with their JSON Schemas and world-acting where not read-only", async () => {
    const installed = await run(
      owner.client.api.plugins.installPlugin({ payload: { dir: "almanac", granted: ["world-acting"] } })
    )
    expect(installed).toMatchObject({ id: "@example/almanac", status: "active" })
    const skills = (await run(owner.client.api.studioSkills.listSkills())).filter((skill) => skill.family === "almanac")
    expect(skills.map((skill) => [skill.name, skill.worldActing]).sort()).toEqual([
      ["almanac.board", false],
      ["almanac.pin_note", true],
      ["almanac.word_count", false]
    ])
    expect(skills.find((skill) => skill.name === "almanac.word_count")!.inputSchema).toMatchObject({
      type: "object",
      required: ["text"]
    })
  })

  it("runs a read-only tool directly and refuses input its schema does not take", async () => {
    const answer = await invoke("almanac.word_count", { text: "three small words" })
    expect(answer).toMatchObject({
      ok: true,
      output: {
        structuredContent: { words: 3, characters: 17 },
        content: [{ type: "text", text: "3 words, 17 characters" }]
      }
    })
    const bad = await invoke("almanac.word_count", { words: 3 })
    expect(bad.ok).toBe(false)
  })

  it("holds a world-acting tool for the owner's approval and runs it after 'Do it'", async () => {
    const outcome = await invokeUnapproved("almanac.pin_note", { text: "Buy oat milk" })
    expect(outcome).toMatchObject({ ok: false, approval: { status: "waiting" } })
    const signalId = String((outcome as { approval: { signalId: string } }).approval.signalId)
    expect((await invoke("almanac.board", {})).output).toMatchObject({ structuredContent: { notes: [] } })
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId: "do-it" } })
    )
    expect(answered).toMatchObject({ status: "answered", actionResult: { output: { ok: true } } })
    expect((await invoke("almanac.board", {})).output).toMatchObject({ structuredContent: { notes: ["Buy oat milk"] } })
  })

  it("reports a crash as the plugin's error, drops its skills meanwhile, and starts it again", async () => {
    // The server that comes back no longer lists word_count: a tool that vanished.
    patchServer(
      folder,
      "\n\n\ndef send(",
      '\nTOOLS = [tool for tool in TOOLS if tool["name"] != "word_count"]\n\n\ndef send('
    )
    await invoke("almanac.board", { crash: true }).catch(() => undefined)
    await until("the plugin to show its server's crash", async () => (await almanac())?.status === "error")
    expect((await almanac())?.error).toContain("The MCP server stopped")
    const gone = await refused(
      owner.client.api.studioSkills.invokeSkill({ payload: { name: "almanac.board", input: {} } })
    )
    expect(gone).toMatchObject({ status: 404, body: { error: "unknown_skill" } })
    await until("the server to come back", async () => (await almanac())?.status === "active", 20_000)
    expect((await invoke("almanac.board", {})).output).toMatchObject({ structuredContent: { notes: ["Buy oat milk"] } })
    const vanished = await refused(
      owner.client.api.studioSkills.invokeSkill({ payload: { name: "almanac.word_count", input: { text: "a" } } })
    )
    expect(vanished).toMatchObject({ status: 404, body: { error: "unknown_skill" } })
    expect((await almanac())?.contributions.map((contribution) => contribution.name).sort()).toEqual([
      "almanac.board",
      "almanac.pin_note"
    ])
  })

  it("keeps the server in its sandbox: no reading outside its folders, no network without the grant", async () => {
    const probe = await invoke("almanac.board", { probe: true })
    const seen = (probe.output as { structuredContent: Record<string, string> }).structuredContent
    expect(seen["/plugin/server.py"]).toBe("read")
    expect(seen["node.db"]).not.toBe("read")
    expect(seen["/root"]).not.toBe("read")
    expect(seen.network).not.toBe("connected")
    expect(seen["plugin folder"]).not.toBe("written")
  })
})

describe("an MCP server that cannot start when the node boots", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "node-mcp-boot-"))
  const settings = { dataDir, pluginDir: join(dataDir, "plugins") }
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("shows error with why, is started again with backoff and comes up, its skills back", async () => {
    const first = await startNode(settings)
    const person = await registerOwner(first)
    const almanacFolder = join(settings.pluginDir, "almanac")
    cpSync(example, almanacFolder, { recursive: true })
    // While /plugin/down exists (the folder is the plugin's, read-only inside), the server exits before it answers.
    patchServer(
      almanacFolder,
      "\nfor line in sys.stdin:",
      '\nif os.path.exists("/plugin/down"):\n    sys.exit("not up yet")\nfor line in sys.stdin:'
    )
    await run(person.client.api.plugins.installPlugin({ payload: { dir: "almanac", granted: ["world-acting"] } }))
    await first.close()

    writeFileSync(join(almanacFolder, "down"), "")
    const again = await startNode(settings)
    try {
      const client = new Client(again.url)
      client.copyCookiesFrom(person.client)
      const listed = async () =>
        (await run(client.api.plugins.listPlugins())).find((plugin) => plugin.id === "@example/almanac")
      const down = await listed()
      expect(down).toMatchObject({ status: "error", contributions: [] })
      expect(down?.error).toContain("The MCP server could not start")
      expect(down?.error).toContain("not up yet")
      rmSync(join(almanacFolder, "down"))
      await until("the server to come up", async () => (await listed())?.status === "active", 20_000)
      const answer = await run(
        client.api.studioSkills.invokeSkill({ payload: { name: "almanac.word_count", input: { text: "up at last" } } })
      )
      expect(answer).toMatchObject({ ok: true, output: { structuredContent: { words: 3 } } })
    } finally {
      await again.close()
    }
  })
})

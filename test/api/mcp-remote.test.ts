/**
 * A remote MCP server as a plugin (a manifest's `mcp.url`): a real Streamable HTTP server in the test (the SDK's own
 * McpServer, ../support/mcp-remote.ts) whose tools become skills; the owner's bearer token reaches it, sealed where it
 * is kept and in no answer; it needs the `network` grant; it is reached under the node's outbound address policy
 * (WEB_ALLOW_PRIVATE: these nodes allow loopback, one does not); when the server's tool list changes, the skills
 * follow; and a server that cannot start when the node boots is started again until it comes up.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Skills, type SkillOutcome } from "../../kernel/extensions/skills.ts"
import { startRemoteMcp, type RemoteMcp } from "../support/mcp-remote.ts"
import {
  attempt,
  Client,
  refused,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"
import { until } from "../support/until.ts"

const token = "remote-token-0123456789"
const dataDir = mkdtempSync(join(tmpdir(), "node-mcp-remote-"))
const settings = { dataDir, pluginDir: join(dataDir, "plugins"), webAllowPrivate: true }

let remote: RemoteMcp
let node: TestNode
let owner: Registered

/** A plugin folder whose manifest names the test's server by URL, and no code. */
const writeRemotePlugin = (pluginDir: string, dir: string, capabilities: ReadonlyArray<string>) =>
  writePluginFolder(
    pluginDir,
    dir,
    {
      name: "Beacon",
      main: null,
      capabilities: capabilities.map((kind) => ({ kind, reason: `the test's ${kind}` })),
      mcp: { url: remote.url }
    },
    ""
  )

const install = (client: Client, dir: string, granted: ReadonlyArray<string>, mcpToken?: string) =>
  client.api.plugins.installPlugin({
    payload: {
      dir,
      granted: granted as ReadonlyArray<"network">,
      ...(mcpToken === undefined ? {} : { mcpToken: Redacted.make(mcpToken) })
    }
  })

const invoke = (name: string, input: Record<string, unknown>) =>
  run(owner.client.api.studioSkills.invokeSkill({ payload: { name, input } }))

const beacon = async () =>
  (await run(owner.client.api.plugins.listPlugins())).find((plugin) => plugin.id === "@test/beacon")

beforeAll(async () => {
  remote = await startRemoteMcp({ token })
  node = await startNode(settings)
  owner = await registerOwner(node)
  writeRemotePlugin(settings.pluginDir, "beacon", ["network", "world-acting"])
})
afterAll(async () => {
  await node?.close()
  await remote?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("a remote MCP server as a plugin", () => {
  it("is refused without the network grant, or when its manifest does not declare network", async () => {
    const ungranted = await refused(install(owner.client, "beacon", ["world-acting"], token))
    expect(ungranted).toMatchObject({
      status: 400,
      body: { error: "missing_grants", details: { missing: ["network"] } }
    })
    writeRemotePlugin(settings.pluginDir, "undeclared", ["world-acting"])
    const undeclared = await refused(install(owner.client, "undeclared", ["world-acting"], token))
    expect(undeclared).toMatchObject({ status: 400, body: { error: "invalid_manifest" } })
    expect(JSON.stringify(undeclared.body)).toContain("needs the network capability")
    expect(remote.authorizations).toEqual([])
  })

  it("is refused when the server refuses the token, or none is given, and keeps nothing", async () => {
    const wrong = await refused(install(owner.client, "beacon", ["network", "world-acting"], "not-the-token"))
    expect(wrong).toMatchObject({ status: 400, body: { error: "activation_failed" } })
    expect(wrong.body.message).toContain("it refused the token it was given (HTTP 401)")
    expect(JSON.stringify(wrong.body)).not.toContain("not-the-token")
    const none = await refused(install(owner.client, "beacon", ["network", "world-acting"]))
    expect(none).toMatchObject({ status: 400, body: { error: "activation_failed" } })
    expect(none.body.message).toContain("it asks for a token (HTTP 401)")
    expect(remote.authorizations).toEqual(["Bearer not-the-token", ""])
    expect(await beacon()).toBeUndefined()
  })

  it("installs with the owner's token, which reaches the server and no answer, sealed where it is kept", async () => {
    const installed = await run(install(owner.client, "beacon", ["network", "world-acting"], token))
    expect(installed).toMatchObject({ id: "@test/beacon", status: "active" })
    expect(JSON.stringify(installed)).not.toContain(token)
    expect(JSON.stringify(await run(owner.client.api.plugins.listPlugins()))).not.toContain(token)
    expect(remote.authorizations.slice(2).every((header) => header === `Bearer ${token}`)).toBe(true)
    const rows = await node.runtime.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ sealed: string }>`SELECT sealed FROM mcp_plugin_tokens`)
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]!.sealed).not.toContain(token)
    const skills = (await run(owner.client.api.studioSkills.listSkills())).filter((skill) => skill.family === "beacon")
    expect(skills.map((skill) => [skill.name, skill.worldActing]).sort()).toEqual([
      ["beacon.send_note", true],
      ["beacon.shout", false]
    ])
  })

  it("runs a read-only tool directly and holds a world-acting one for 'Do it'", async () => {
    expect(await invoke("beacon.shout", { text: "hello" })).toMatchObject({
      ok: true,
      output: { content: [{ type: "text", text: "HELLO" }], structuredContent: { shouted: "HELLO" } }
    })
    const outcome: SkillOutcome = await node.runtime.runPromise(
      Effect.flatMap(Skills, (skills) =>
        skills.invoke({
          name: "beacon.send_note",
          input: { text: "Ship it" },
          beingId: owner.being.id,
          approved: false
        })
      )
    )
    expect(outcome).toMatchObject({ ok: false, approval: { status: "waiting" } })
    expect(remote.notes).toEqual([])
    const signalId = String((outcome as { approval: { signalId: string } }).approval.signalId)
    const answered = await run(
      owner.client.api.desktop.answerSignal({ path: { id: signalId }, payload: { optionId: "do-it" } })
    )
    expect(answered).toMatchObject({ status: "answered", actionResult: { output: { ok: true } } })
    expect(remote.notes).toEqual(["Ship it"])
  })

  it("follows the server's tool list as it changes: a new tool callable, a removed one 404 unknown_skill", async () => {
    remote.addTool("whisper")
    await until("the new tool to be a skill", async () =>
      (await beacon())?.contributions.some((contribution) => contribution.name === "beacon.whisper")
    )
    expect(await invoke("beacon.whisper", { text: "QUIET" })).toMatchObject({
      ok: true,
      output: { content: [{ type: "text", text: "quiet" }] }
    })
    remote.removeTool("whisper")
    await until("the removed tool to leave", async () =>
      (await beacon())?.contributions.every((contribution) => contribution.name !== "beacon.whisper")
    )
    const gone = await refused(
      owner.client.api.studioSkills.invokeSkill({ payload: { name: "beacon.whisper", input: { text: "a" } } })
    )
    expect(gone).toMatchObject({ status: 404, body: { error: "unknown_skill" } })
    expect(await invoke("beacon.shout", { text: "still" })).toMatchObject({ ok: true })
  })

  it("connects again when the server forgets its session (it restarted)", async () => {
    const opened = remote.sessionsOpened()
    remote.forgetSessions()
    const shout = () =>
      attempt(
        owner.client.api.studioSkills.invokeSkill({ payload: { name: "beacon.shout", input: { text: "again" } } })
      )
    await until("the skill to answer over a new session", async () => {
      const outcome = await shout()
      return outcome.ok && outcome.value.ok
    })
    expect(remote.sessionsOpened()).toBe(opened + 1)
  })

  it("is started again at boot until the server comes up, showing error with why meanwhile", async () => {
    await node.close()
    remote.refuseNext = 2
    node = await startNode(settings)
    const owner2 = new Client(node.url)
    owner2.copyCookiesFrom(owner.client)
    owner = { ...owner, client: owner2 }
    const down = await beacon()
    expect(down).toMatchObject({ status: "error", contributions: [] })
    expect(down?.error).toContain("The MCP server could not start")
    expect(down?.error).toContain("starting it again")
    await until("the server to come up", async () => (await beacon())?.status === "active", 20_000)
    expect(remote.refuseNext).toBe(0)
    // The token it came up with is the one sealed at install, read back at boot.
    expect(await invoke("beacon.shout", { text: "back" })).toMatchObject({
      ok: true,
      output: { structuredContent: { shouted: "BACK" } }
    })
  })
})

describe("a remote MCP server under the outbound address policy", () => {
  it("is refused on a loopback address when WEB_ALLOW_PRIVATE is off, and nothing reaches it", async () => {
    const strict = await startNode((dir) => ({ pluginDir: join(dir, "plugins"), webAllowPrivate: false }))
    try {
      const strictOwner = await registerOwner(strict)
      writeRemotePlugin(join(strict.dataDir, "plugins"), "beacon", ["network", "world-acting"])
      const seen = remote.authorizations.length
      const answer = await refused(install(strictOwner.client, "beacon", ["network", "world-acting"], token))
      expect(answer).toMatchObject({ status: 400, body: { error: "activation_failed" } })
      expect(answer.body.message).toMatch(/it could not be reached: 127\.0\.0\.1 is on a private or local address/)
      expect(remote.authorizations.length).toBe(seen)
    } finally {
      await strict.close()
    }
  })

  it("takes no token for a plugin that is not a remote MCP server", async () => {
    writePluginFolder(settings.pluginDir, "plain", { main: null }, "")
    const answer = await refused(install(owner.client, "plain", [], token))
    expect(answer).toMatchObject({ status: 400, body: { error: "invalid_request" } })
  })
})

/**
 * A plugin's provider that syncs, over real HTTP: the sample plugin's `notebook.journal` runs its
 * `sync` in the plugin's isolate with only its granted adapter (its data folder), and
 * `POST /api/twin/sync/notebook.journal` turns each item into a recallable memory with
 * `memory.created` and an activity; its SyncState and hint show in the twin status. What a plugin
 * answers is validated by the node (an invalid answer stores nothing and says why), and its sync
 * sees the connection's non-secret meta only.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { cpSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab, type LiveFrame } from "../support/live.ts"
import {
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { writePluginFolder } from "../support/plugin-folder.ts"

const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")

let node: TestNode
let owner: Registered
let member: Registered

/**
 * A plugin whose provider's sync answers what `body` returns, seeing `request` (the connection as the plugin sees it).
 */
const probePlugin = (dir: string, body: string, auth: unknown) =>
  writePluginFolder(
    join(node.dataDir, "plugins"),
    dir,
    {
      extensions: [{ kind: "integration", id: "feed", title: `The ${dir} feed`, uses: [] }]
    },
    `export const activate = (context) => context.contribute("integration", "feed", {
  auth: ${JSON.stringify(auth)},
  syncable: true,
  sync: async (request) => { ${body} }
})
`
  )

beforeAll(async () => {
  node = await startNode((dataDir) => ({
    pluginDir: join(dataDir, "plugins"),
    encryptionKey: Option.some(Redacted.make("a long passphrase for the tests"))
  }))
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
  cpSync(example, join(node.dataDir, "plugins", "notebook"), { recursive: true })
  await run(
    owner.client.api.plugins.installPlugin({ payload: { dir: "notebook", granted: ["filesystem", "storage"] } })
  )
})
afterAll(() => node.close())

const isSynced = (frame: LiveFrame) => frame.type === "twin.activity" && /^(Synced|Could not sync)/.test(frame.summary)

/** Starts a sync of the provider and waits for its last activity; answers every frame up to it. */
const sync = async (who: Registered, provider: string) => {
  const tab = await LiveTab.open(node, who.client)
  expect(await run(who.client.api.twin.sync({ path: { provider }, urlParams: {} }))).toEqual({ started: true })
  const frames = await tab.upTo(isSynced)
  tab.close()
  return frames
}

const statusOf = async (who: Registered, provider: string) =>
  (await run(who.client.api.twin.status())).providers.find((p) => p.provider === provider)

const jot = (who: Registered, text: string) =>
  run(who.client.api.studioSkills.invokeSkill({ payload: { name: "notebook.jot", input: { text } } }))

describe("a plugin provider's sync", () => {
  it("is refused before the being connects it, and for a provider no plugin contributes", async () => {
    expect(await statusOf(member, "notebook.journal")).toMatchObject({
      origin: "plugin",
      syncable: true,
      configured: true,
      connected: false,
      sync: { status: "idle" },
      hint: "Connect Notebook journal under Settings → Connections, then sync."
    })
    expect(
      await refused(member.client.api.twin.sync({ path: { provider: "notebook.journal" }, urlParams: {} }))
    ).toMatchObject({ status: 409, body: { error: "not_connected" } })
    expect(
      await refused(member.client.api.twin.sync({ path: { provider: "notebook.nothing" }, urlParams: {} }))
    ).toMatchObject({ status: 404, body: { error: "unknown_provider" } })
    expect(await run(member.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))).toEqual([])
  })

  it("turns each note into a memory, with memory.created and an activity, and remembers only new ones next time", async () => {
    await jot(member, "Oolong is best at eighty degrees")
    await jot(member, "The bakery on Elm opens at seven")
    await jot(owner, "The owner's own note")
    await run(member.client.api.connections.create({ payload: { provider: "notebook.journal", config: {} } }))

    const frames = await sync(member, "notebook.journal")
    const created = frames.flatMap((frame) => (frame.type === "memory.created" ? [frame.memory.content] : []))
    expect(created).toHaveLength(2)
    expect(created.join("\n")).toContain("Oolong is best at eighty degrees")
    expect(frames.at(-1)).toMatchObject({
      type: "twin.activity",
      kind: "learned",
      summary: "Synced Notebook journal: 2 new, 0 already remembered (2 new of 2)"
    })

    const found = await run(member.client.api.twin.searchMemories({ urlParams: { q: "bakery", offset: 0 } }))
    expect(found.map((memory) => memory.source)).toContain("notebook.journal:note-2")
    expect(JSON.stringify(found)).not.toContain("owner's own note")
    expect(await statusOf(member, "notebook.journal")).toMatchObject({
      connected: true,
      sync: { status: "done", error: null, detail: { remembered: 2, cursor: "2" } },
      hint: null
    })

    await jot(member, "Call the plumber on Monday")
    const again = await sync(member, "notebook.journal")
    expect(again.filter((frame) => frame.type === "memory.created")).toHaveLength(1)
    expect(again.at(-1)).toMatchObject({ summary: "Synced Notebook journal: 1 new, 0 already remembered (1 new of 3)" })
  })

  it("stores nothing from an answer that does not fit ProviderSyncResult, and says why in the status", async () => {
    probePlugin("oversize", `return { items: [{ id: "a", text: "fine" }, { id: "b", text: "x".repeat(8001) }] }`, {
      kind: "none"
    })
    probePlugin("throwing", `throw new Error("the diary service is down")`, { kind: "none" })
    for (const dir of ["oversize", "throwing"]) {
      await run(owner.client.api.plugins.installPlugin({ payload: { dir, granted: [] } }))
      await run(member.client.api.connections.create({ payload: { provider: `${dir}.feed`, config: {} } }))
    }
    const before = (await run(member.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))).length

    const bad = await sync(member, "oversize.feed")
    expect(bad.some((frame) => frame.type === "memory.created")).toBe(false)
    expect(bad.at(-1)).toMatchObject({
      summary: expect.stringContaining(
        "Could not sync The oversize feed: oversize.feed answered what does not fit ProviderSyncResult"
      )
    })
    expect(await statusOf(member, "oversize.feed")).toMatchObject({
      sync: { status: "error", error: expect.stringContaining("does not fit ProviderSyncResult") },
      hint: expect.stringMatching(/^The last sync failed: oversize\.feed answered what does not fit ProviderSyncResult/)
    })

    const thrown = await sync(member, "throwing.feed")
    expect(thrown.at(-1)).toMatchObject({
      summary: "Could not sync The throwing feed: the sync of throwing.feed failed: the diary service is down"
    })
    expect(await run(member.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))).toHaveLength(
      before
    )
  })

  it("hands the plugin the connection's non-secret meta, never its secret", async () => {
    probePlugin("echo", `return { items: [{ id: "seen", text: JSON.stringify(request) }] }`, {
      kind: "fields",
      fields: [
        { name: "account", label: "Account", secret: false },
        { name: "apiKey", label: "API key" }
      ]
    })
    await run(owner.client.api.plugins.installPlugin({ payload: { dir: "echo", granted: [] } }))
    const connection = await run(
      member.client.api.connections.create({
        payload: { provider: "echo.feed", config: { account: "grace", apiKey: "ek-very-secret" } }
      })
    )
    const frames = await sync(member, "echo.feed")
    const seen = frames.flatMap((frame) => (frame.type === "memory.created" ? [frame.memory.content] : [])).join("")
    expect(seen).toContain(`"connectionId":"${connection.id}"`)
    expect(seen).toContain(`"meta":{"account":"grace"}`)
    expect(seen).not.toContain("ek-very-secret")
  })
})

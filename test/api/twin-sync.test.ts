/**
 * The files provider over real HTTP: the owner names a folder inside FILES_ROOT and
 * `POST /api/twin/sync/files` indexes its text files into `document` memories in the background,
 * each with an `indexed_file` activity and `memory.created`; a re-sync leaves unchanged files
 * alone, replaces changed ones and forgets deleted ones; the status shows the provider and its
 * SyncState; every refusal changes nothing.
 */
import * as Option from "effect/Option"
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab, type LiveFrame } from "../support/live.ts"
import { embedByMeaning } from "../support/meanings.ts"
import type { ReceivedRequest } from "../support/openai-replies.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import {
  apiError,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered
let root: string
let outside: string
/** While set, embedding calls wait for it: a sync held in the middle. */
let hold: Promise<void> | null = null
/** Called when a held embedding call arrives. */
let onHeld = () => {}

const embed = embedByMeaning([["dog", "retriever", "biscuit"]])

beforeAll(async () => {
  models = await startOpenAiServer()
  models.handle("embeddings", async (request: ReceivedRequest) => {
    if (hold !== null) {
      onHeld()
      await hold
    }
    return embed(request)
  })
  outside = mkdtempSync(join(tmpdir(), "twin-sync-outside-"))
  writeFileSync(join(outside, "secret.md"), "A secret outside the root.")
  node = await startNode((dataDir) => {
    root = join(dataDir, "owner-folder")
    mkdirSync(join(root, "notes", "sub"), { recursive: true })
    writeFileSync(join(root, "notes", "dog.md"), "# Biscuit\n\nBiscuit is a golden retriever who loves the beach.")
    writeFileSync(join(root, "notes", "tea.txt"), "Oolong in the afternoon, never after six.")
    writeFileSync(join(root, "notes", "sub", "plans.md"), "Plan a trip to the mountains in spring.")
    writeFileSync(join(root, "notes", ".hidden.md"), "Hidden notes are not indexed.")
    writeFileSync(join(root, "notes", "photo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]))
    writeFileSync(join(root, "elsewhere.md"), "Outside the named folder.")
    symlinkSync(join(outside, "secret.md"), join(root, "notes", "escape.md"))
    return {
      ...noModelSettings,
      llmTiers: tierSettings({ embed: { baseUrl: models.baseUrl, model: "meaning-embed" } }),
      filesRoot: Option.some(root)
    }
  })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await models.close()
  rmSync(outside, { recursive: true, force: true })
})

const isSynced = (frame: LiveFrame) => frame.type === "twin.activity" && /^(Synced|Could not sync)/.test(frame.summary)

/** Starts a sync and waits for its last activity; answers every frame up to it. */
const sync = async (who: Registered, path?: string) => {
  const tab = await LiveTab.open(node, who.client)
  expect(
    await run(who.client.api.twin.sync({ path: { provider: "files" }, urlParams: path === undefined ? {} : { path } }))
  ).toEqual({ started: true })
  const frames = await tab.upTo(isSynced)
  tab.close()
  return frames
}

const filesProvider = async (who: Registered) =>
  (await run(who.client.api.twin.status())).providers.find((p) => p.provider === "files")!

const documents = (who: Registered) =>
  run(who.client.api.twin.searchMemories({ urlParams: { kind: "document", limit: 100, offset: 0 } }))

describe("POST /api/twin/sync/files", () => {
  it("indexes the named folder's text files into document memories, each with an indexed_file activity, and shows its state", async () => {
    const before = await filesProvider(owner)
    expect(before).toMatchObject({
      configured: true,
      connected: false,
      connectionId: null,
      sync: { status: "idle" },
      origin: "builtin",
      syncable: true
    })
    expect(before.hint).toContain("Sync")

    const frames = await sync(owner, "notes")
    const activities = frames
      .filter((frame) => frame.type === "twin.activity")
      .map((frame) => (frame.type === "twin.activity" ? frame.summary : ""))
    expect(activities).toEqual([
      "Indexed notes/sub/plans.md (1 memory)",
      "Indexed notes/dog.md (1 memory)",
      "Indexed notes/tea.txt (1 memory)",
      "Synced notes: 3 indexed, 0 unchanged, 0 removed, 0 skipped"
    ])
    const created = frames.flatMap((frame) => (frame.type === "memory.created" ? [frame.memory] : []))
    expect(created).toHaveLength(3)
    expect(created.every((memory) => memory.kind === "document" && memory.tags.includes("file"))).toBe(true)
    expect(created.map((memory) => memory.source).sort()).toEqual([
      "files:notes/dog.md",
      "files:notes/sub/plans.md",
      "files:notes/tea.txt"
    ])
    expect(JSON.stringify(created)).not.toContain("secret")
    expect(JSON.stringify(created)).not.toContain("Hidden")
    expect(JSON.stringify(created)).not.toContain("Outside the named folder")

    // Found by meaning as well as words: "dog" shares no word with the note.
    const found = await run(owner.client.api.twin.searchMemories({ urlParams: { q: "dog", offset: 0 } }))
    expect(found[0]?.content).toBe("notes/dog.md\n# Biscuit\n\nBiscuit is a golden retriever who loves the beach.")

    const status = await run(owner.client.api.twin.status())
    expect(status.counts).toMatchObject({ files: 3, connections: 1, memories: 3 })
    const provider = status.providers.find((p) => p.provider === "files")!
    expect(provider).toMatchObject({
      configured: true,
      connected: true,
      connectionId: expect.any(String),
      label: "notes",
      meta: { path: "notes" },
      lastSyncAt: expect.any(String),
      hint: null,
      sync: {
        status: "done",
        error: null,
        detail: { files: 3, indexed: 3, unchanged: 0, removed: 0, skipped: 0, memories: 3 }
      }
    })
    expect(provider.sync.finishedAt! >= provider.sync.startedAt!).toBe(true)
    const activity = await run(owner.client.api.twin.listActivity({ urlParams: { kind: "indexed_file", offset: 0 } }))
    expect(activity).toHaveLength(4)
    // Each file's text also waits for the learning loop (no cheap tier here, so it stays queued).
    expect(await run(owner.client.api.twin.getLearning())).toEqual({
      sources: { thread: true, chat: true, mail: true, file: true },
      queued: 3
    })
  })

  it("writes each indexed file's summary into the owner's file listing and search; files it did not index have none", async () => {
    const listing = await run(owner.client.api.files.list({ urlParams: { scope: "user", path: "notes" } }))
    const summary = (name: string) => listing.find((entry) => entry.name === name)?.summary
    expect(summary("dog.md")).toBe("Biscuit")
    expect(summary("tea.txt")).toBe("Oolong in the afternoon, never after six.")
    expect(summary("photo.png")).toBeNull()
    expect(summary("sub")).toBeNull()
    const top = await run(owner.client.api.files.list({ urlParams: { scope: "user" } }))
    expect(top.find((entry) => entry.name === "elsewhere.md")?.summary).toBeNull()
    const searched = await run(owner.client.api.files.search({ urlParams: { q: "plans" } }))
    expect(searched.map((entry) => [entry.path, entry.summary])).toEqual([
      ["notes/sub/plans.md", "Plan a trip to the mountains in spring."]
    ])
  })

  it("re-syncs the folder named last: unchanged files stay, a changed one is replaced, a deleted one forgotten", async () => {
    const first = await documents(owner)
    const again = await sync(owner)
    expect(again.filter((frame) => frame.type === "memory.created")).toEqual([])
    expect(again.at(-1)).toMatchObject({ summary: "Synced notes: 0 indexed, 3 unchanged, 0 removed, 0 skipped" })
    expect((await documents(owner)).map((m) => m.id).sort()).toEqual(first.map((m) => m.id).sort())
    expect((await run(owner.client.api.twin.getLearning())).queued).toBe(3)

    // Touched but the same text: its hash holds, nothing is made again.
    utimesSync(join(root, "notes", "tea.txt"), new Date("2031-01-01T00:00:00Z"), new Date("2031-01-01T00:00:00Z"))
    writeFileSync(join(root, "notes", "dog.md"), "Biscuit now sleeps on the sofa.")
    utimesSync(join(root, "notes", "dog.md"), new Date("2031-01-02T00:00:00Z"), new Date("2031-01-02T00:00:00Z"))
    rmSync(join(root, "notes", "sub", "plans.md"))
    const changed = await sync(owner)
    expect(
      changed
        .filter((frame) => frame.type === "twin.activity")
        .map((frame) => (frame.type === "twin.activity" ? frame.summary : ""))
    ).toEqual(["Indexed notes/dog.md (1 memory)", "Synced notes: 1 indexed, 1 unchanged, 1 removed, 0 skipped"])
    const now = await documents(owner)
    expect(now.map((m) => m.content).sort()).toEqual([
      "notes/dog.md\nBiscuit now sleeps on the sofa.",
      "notes/tea.txt\nOolong in the afternoon, never after six."
    ])
    expect(now.find((m) => m.source === "files:notes/tea.txt")?.id).toBe(
      first.find((m) => m.source === "files:notes/tea.txt")?.id
    )
    expect((await run(owner.client.api.twin.status())).counts.files).toBe(2)
    // Once per content: the changed file's new text is queued, the touched one's is not again.
    expect((await run(owner.client.api.twin.getLearning())).queued).toBe(4)
  })

  it("refuses a second sync while one runs with 409 sync_running; the first still finishes", async () => {
    let release = () => {}
    hold = new Promise((resolve) => (release = resolve))
    const held = new Promise<void>((resolve) => (onHeld = resolve))
    writeFileSync(join(root, "notes", "new.md"), "A new note about a retriever.")
    const tab = await LiveTab.open(node, owner.client)
    expect(await run(owner.client.api.twin.sync({ path: { provider: "files" }, urlParams: {} }))).toEqual({
      started: true
    })
    await held
    expect((await filesProvider(owner)).sync.status).toBe("running")
    expect(
      await refused(owner.client.api.twin.sync({ path: { provider: "files" }, urlParams: { path: "" } }))
    ).toMatchObject({
      status: 409,
      body: { error: "sync_running" }
    })
    hold = null
    release()
    expect((await tab.next(isSynced)) as unknown).toMatchObject({
      summary: "Synced notes: 1 indexed, 2 unchanged, 0 removed, 0 skipped"
    })
    tab.close()
    expect((await filesProvider(owner)).sync.status).toBe("done")
  })

  it("refuses an unknown provider (404), a bad provider id, a path out of the root or not a folder (400), a missing folder (404), changing nothing", async () => {
    const before = await filesProvider(owner)
    // One after another: each claims the sync while it checks, so side by side they would race for it.
    for (const [path, status, error] of [
      ["/api/twin/sync/mail_b", 404, "unknown_provider"],
      ["/api/twin/sync/Files!", 400, "invalid_request"],
      ["/api/twin/sync/files?path=../..", 400, "invalid_path"],
      ["/api/twin/sync/files?path=%2Fetc", 400, "invalid_path"],
      ["/api/twin/sync/files?path=notes%2Ftea.txt", 400, "not_a_folder"],
      ["/api/twin/sync/files?path=nowhere", 404, "not_found"],
      [`/api/twin/sync/files?path=${"a".repeat(1025)}`, 400, "invalid_request"]
    ] as const) {
      const answer = await owner.client.raw("POST", path)
      expect({ path, status: answer.status, error: apiError(answer).error }).toEqual({ path, status, error })
    }
    expect(await filesProvider(owner)).toEqual(before)
    expect((await fetch(`${node.url}/api/twin/sync/files`, { method: "POST" })).status).toBe(401)
  })

  it("is the owner's folder: anyone else is 403 and reads it unconfigured, with no filesRoot in env", async () => {
    const member = await registerMember(node, owner.client)
    expect(await refused(member.client.api.twin.sync({ path: { provider: "files" }, urlParams: {} }))).toMatchObject({
      status: 403,
      body: { error: "forbidden" }
    })
    expect(await filesProvider(member)).toMatchObject({
      configured: false,
      connected: false,
      sync: { status: "idle" },
      hint: expect.stringContaining("owner")
    })
    expect((await run(member.client.api.twin.status())).counts).toMatchObject({ files: 0, connections: 0, memories: 0 })
    expect(await run(member.client.api.twin.env())).toMatchObject({ filesRoot: null })
    expect(await run(owner.client.api.twin.env())).toMatchObject({ filesRoot: root })
  })
})

describe("a node without FILES_ROOT", () => {
  it("says the provider is not configured and refuses a sync with 409 files_not_configured", async () => {
    const bare = await startNode(noModelSettings)
    try {
      const who = await registerOwner(bare)
      expect(await refused(who.client.api.twin.sync({ path: { provider: "files" }, urlParams: {} }))).toMatchObject({
        status: 409,
        body: { error: "files_not_configured" }
      })
      const status = await run(who.client.api.twin.status())
      expect(status.providers).toEqual([
        expect.objectContaining({
          provider: "mail_a",
          configured: false,
          connected: false,
          hint: expect.stringContaining("MAIL_A_CLIENT_ID")
        }),
        expect.objectContaining({
          provider: "files",
          configured: false,
          connected: false,
          hint: expect.stringContaining("FILES_ROOT")
        }),
        expect.objectContaining({
          provider: "browser",
          configured: false,
          connected: false,
          hint: expect.stringContaining("FILES_ROOT")
        }),
        expect.objectContaining({
          provider: "chat_a",
          configured: false,
          connected: false,
          hint: expect.stringContaining("CHAT_A_BOT_TOKEN")
        })
      ])
      expect(await run(who.client.api.twin.env())).toMatchObject({ filesRoot: null, gmail: false })
    } finally {
      await bare.close()
    }
  })
})

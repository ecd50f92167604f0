/**
 * The browser provider over a real node: a Chromium History file (a SQLite database made here
 * with Chromium's `urls` columns) copied inside FILES_ROOT is imported by
 * `POST /api/twin/sync/browser`: each web page visited becomes an `episode` memory and a `browsed`
 * activity, oldest first; a re-sync imports only what was visited since; anything that is not a
 * History file inside the owner's folder is refused before a sync starts.
 */
import Database from "better-sqlite3"
import * as Option from "effect/Option"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab, type LiveFrame } from "../support/live.ts"
import { noModelSettings } from "../support/models.ts"
import {
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let node: TestNode
let owner: Registered
let member: Registered
let root: string

/** Chromium's time: microseconds since 1601-01-01 UTC. */
const chromeTime = (iso: string) => (BigInt(Date.parse(iso)) + 11_644_473_600_000n) * 1000n

const writeHistory = (
  pages: ReadonlyArray<{ url: string; title: string; visits: number; at: string; hidden?: number }>
) => {
  const db = new Database(join(root, "browser", "History"))
  db.exec(`CREATE TABLE IF NOT EXISTS urls (id INTEGER PRIMARY KEY AUTOINCREMENT, url LONGVARCHAR, title LONGVARCHAR,
    visit_count INTEGER DEFAULT 0 NOT NULL, typed_count INTEGER DEFAULT 0 NOT NULL, last_visit_time INTEGER NOT NULL, hidden INTEGER DEFAULT 0 NOT NULL)`)
  const insert = db.prepare(
    "INSERT INTO urls (url, title, visit_count, last_visit_time, hidden) VALUES (?, ?, ?, ?, ?)"
  )
  for (const page of pages) insert.run(page.url, page.title, page.visits, chromeTime(page.at), page.hidden ?? 0)
  db.close()
}

beforeAll(async () => {
  node = await startNode((dataDir) => {
    root = join(dataDir, "owner-folder")
    mkdirSync(join(root, "browser"), { recursive: true })
    writeFileSync(join(root, "browser", "notes.txt"), "Not a database.")
    return { ...noModelSettings, filesRoot: Option.some(root) }
  })
  writeHistory([
    { url: "https://vet.example.org/biscuit", title: "Biscuit's vet", visits: 3, at: "2026-03-01T10:00:00Z" },
    { url: "https://tea.example.org/oolong", title: "Oolong brewing", visits: 1, at: "2026-03-02T08:30:00Z" },
    { url: "chrome://settings", title: "Settings", visits: 9, at: "2026-03-02T09:00:00Z" },
    { url: "https://hidden.example.org/", title: "Hidden", visits: 1, at: "2026-03-02T09:30:00Z", hidden: 1 }
  ])
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(() => node.close())

/** The `memory.created` frames the syncs so far published. */
let created = 0

const isImported = (frame: LiveFrame) =>
  frame.type === "twin.activity" && /^(Imported|Could not import)/.test(frame.summary)

const sync = async () => {
  const tab = await LiveTab.open(node, owner.client)
  expect(await run(owner.client.api.twin.sync({ path: { provider: "browser" }, urlParams: {} }))).toEqual({
    started: true
  })
  const frames = await tab.upTo(isImported)
  tab.close()
  created += frames.filter((frame) => frame.type === "memory.created").length
  return frames.flatMap((frame) => (frame.type === "twin.activity" ? [frame.summary] : []))
}

describe("the browser provider", () => {
  it("refuses what is not a History file inside the owner's folder, changing nothing", async () => {
    const create = (path: string) =>
      refused(owner.client.api.connections.create({ payload: { provider: "browser", config: { path } } }))
    expect(await create("browser/notes.txt")).toMatchObject({ status: 400, body: { error: "not_browser_history" } })
    expect(await create("browser")).toMatchObject({ status: 400, body: { error: "invalid_path" } })
    expect(await create("../History")).toMatchObject({ status: 400, body: { error: "invalid_path" } })
    expect(await create("browser/Nope")).toMatchObject({ status: 404 })
    expect(
      await refused(
        member.client.api.connections.create({ payload: { provider: "browser", config: { path: "browser/History" } } })
      )
    ).toMatchObject({ status: 403 })
    expect(await refused(owner.client.api.twin.sync({ path: { provider: "browser" }, urlParams: {} }))).toMatchObject({
      status: 400,
      body: { error: "invalid_path" }
    })
    expect(
      await refused(
        owner.client.api.twin.sync({ path: { provider: "browser" }, urlParams: { path: "browser/notes.txt" } })
      )
    ).toMatchObject({ status: 400, body: { error: "not_browser_history" } })
    expect(await run(owner.client.api.connections.list())).toEqual([])
  })

  it("imports each web page visited as an episode memory and a browsed activity, then only what is new", async () => {
    const before = (await run(owner.client.api.twin.status())).providers.find(
      (provider) => provider.provider === "browser"
    )
    expect(before).toMatchObject({
      configured: true,
      connected: false,
      syncable: true,
      hint: expect.stringContaining("History file")
    })
    const connection = await run(
      owner.client.api.connections.create({ payload: { provider: "browser", config: { path: "browser/History" } } })
    )
    expect(connection).toMatchObject({ provider: "browser", status: "connected", meta: { path: "browser/History" } })

    expect(await sync()).toEqual([
      `Browsed "Biscuit's vet" (https://vet.example.org/biscuit)`,
      `Browsed "Oolong brewing" (https://tea.example.org/oolong)`,
      "Imported 2 pages from browser/History"
    ])
    const episodes = await run(
      owner.client.api.twin.searchMemories({ urlParams: { kind: "episode", limit: 10, offset: 0 } })
    )
    expect(episodes.map((memory) => [memory.content, memory.source, memory.tags])).toEqual(
      expect.arrayContaining([
        [
          `Visited "Biscuit's vet" (https://vet.example.org/biscuit) on 2026-03-01T10:00:00.000Z, 3 visits in all.`,
          "browser:https://vet.example.org/biscuit",
          ["browsed", "vet.example.org"]
        ],
        [
          `Visited "Oolong brewing" (https://tea.example.org/oolong) on 2026-03-02T08:30:00.000Z.`,
          "browser:https://tea.example.org/oolong",
          ["browsed", "tea.example.org"]
        ]
      ])
    )
    expect(episodes).toHaveLength(2)
    expect(created).toBe(2)
    expect((await run(owner.client.api.twin.searchMemories({ urlParams: { q: "vet", offset: 0 } })))[0]?.source).toBe(
      "browser:https://vet.example.org/biscuit"
    )

    writeHistory([
      { url: "https://maps.example.org/mountains", title: "Mountain trails", visits: 1, at: "2026-03-03T07:00:00Z" }
    ])
    expect(await sync()).toEqual([
      `Browsed "Mountain trails" (https://maps.example.org/mountains)`,
      "Imported 1 page from browser/History"
    ])
    expect(await sync()).toEqual(["Imported 0 pages from browser/History"])
    expect(
      await run(owner.client.api.twin.searchMemories({ urlParams: { kind: "episode", limit: 10, offset: 0 } }))
    ).toHaveLength(3)

    const after = (await run(owner.client.api.twin.status())).providers.find(
      (provider) => provider.provider === "browser"
    )
    expect(after).toMatchObject({
      connected: true,
      connectionId: connection.id,
      hint: null,
      lastSyncAt: expect.any(String),
      sync: { status: "done", detail: { pages: 0, remembered: 0 } }
    })
    expect((await run(owner.client.api.twin.listActivity({ urlParams: { kind: "browsed", offset: 0 } }))).length).toBe(
      6
    )
  })
})

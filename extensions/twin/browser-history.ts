/**
 * The browser provider's one pass: a Chromium profile's `History` file (a SQLite database), copied
 * by its owner inside FILES_ROOT, is read whole through the owner's folder (regular file, no link
 * out, at most MAX_HISTORY_BYTES) and opened read-only in memory, so a browser holding the live
 * file open is never locked or written. Each page visited since the last pass (newest first, at
 * most MAX_PAGES, http and https only) becomes an `episode` memory and a `browsed` activity; the
 * pass keeps its cursor (Chromium's last visit time) so a page is not remembered twice.
 */
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import type { Caller } from "../accounts/contract/session.ts"
import { NotBrowserHistory } from "./contract/errors.ts"
import { Activity } from "./activity.ts"
import { Memories } from "./memories.ts"
import { TwinFolders } from "./ports.ts"
import { fnNamed } from "../../kernel/spans.ts"

export const BROWSER_PROVIDER = "browser"
export const MAX_HISTORY_BYTES = 64 * 1024 * 1024
export const MAX_PAGES = 200

/** Chromium counts microseconds from 1601-01-01 UTC; JavaScript milliseconds from 1970. */
const WEBKIT_EPOCH_MS = 11_644_473_600_000n

export interface BrowsedPage {
  readonly url: string
  readonly title: string
  readonly visits: number
  /** Chromium's own timestamp, as text: it passes 2^53, so it stays a bigint in between. */
  readonly visitTime: string
  readonly at: string
}

export type BrowserCounts = {
  pages: number
  remembered: number
  /** Where the next pass starts: the newest visit time read so far. */
  cursor: string
}

const notHistory = (path: string) =>
  new NotBrowserHistory({
    message: `${path} is not a Chromium History file (a SQLite database with a urls table).`
  })

/** The pages of a History database visited after `cursor`, newest first; null when it is no History file. */
export const pagesOf = (bytes: Uint8Array, cursor: bigint, most: number): ReadonlyArray<BrowsedPage> | null => {
  let db: Database.Database | undefined
  try {
    db = new Database(Buffer.from(bytes), { readonly: true })
    const rows = db
      .prepare(`SELECT url, title, visit_count AS visits, last_visit_time AS visitTime FROM urls
      WHERE hidden = 0 AND last_visit_time > ? AND (url LIKE 'http://%' OR url LIKE 'https://%')
      ORDER BY last_visit_time DESC LIMIT ?`)
      .safeIntegers(true)
      .all(cursor, BigInt(most)) as Array<{ url: string; title: string | null; visits: bigint; visitTime: bigint }>
    return rows.map((row) => ({
      url: row.url.slice(0, 2000),
      title: (row.title ?? "").trim().slice(0, 300),
      visits: Number(row.visits),
      visitTime: row.visitTime.toString(),
      at: new Date(Number(row.visitTime / 1000n - WEBKIT_EPOCH_MS)).toISOString()
    }))
  } catch {
    return null
  } finally {
    db?.close()
  }
}

const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).hostname.slice(0, 64) : "")

export class BrowserImporter extends Effect.Service<BrowserImporter>()("twin/BrowserImporter", {
  dependencies: [Memories.Default, Activity.Default],
  effect: Effect.gen(function* () {
    const memories = yield* Memories
    const activity = yield* Activity
    const folders = yield* TwinFolders

    /** Refuses, before a sync starts, a path that is not a History file inside the owner's folder. */
    const check = fnNamed("twin.checkBrowserHistory")(function* (caller: Caller, path: string) {
      const bytes = yield* folders.readFile(caller, path, MAX_HISTORY_BYTES)
      if (pagesOf(bytes, 0n, 1) === null) return yield* notHistory(path)
    })

    const importHistory = fnNamed("twin.importBrowserHistory")(function* (
      caller: Caller,
      path: string,
      cursor: string
    ) {
      const bytes = yield* folders.readFile(caller, path, MAX_HISTORY_BYTES)
      const pages = pagesOf(bytes, BigInt(cursor), MAX_PAGES)
      if (pages === null) return yield* notHistory(path)
      const counts: BrowserCounts = { pages: pages.length, remembered: 0, cursor: pages[0]?.visitTime ?? cursor }
      // Oldest first, so the activity log reads in the order the pages were visited.
      for (const page of [...pages].reverse()) {
        const named = page.title === "" ? page.url : `"${page.title}" (${page.url})`
        yield* memories.store(
          caller.beingId,
          {
            kind: "episode",
            content: `Visited ${named} on ${page.at}${page.visits > 1 ? `, ${page.visits} visits in all` : ""}.`.slice(
              0,
              4000
            ),
            importance: 0.2,
            tags: ["browsed", hostOf(page.url)].filter((tag) => tag !== ""),
            source: `browser:${page.url}`.slice(0, 200)
          },
          { skipNearDuplicates: false }
        )
        yield* activity.record(caller.beingId, "browsed", `Browsed ${named}`)
        counts.remembered++
      }
      return counts
    })

    return { check, importHistory } as const
  })
}) {}

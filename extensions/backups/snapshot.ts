/**
 * The database inside a backup: a consistent snapshot of the live SQLite file taken through a connection of its own
 * (`VACUUM INTO` reads one transaction's view in WAL mode, so the node keeps serving and writing meanwhile, and the
 * copy holds every write committed before it began), its counts and its integrity check.
 */
import Database from "better-sqlite3"
import type { BackupCounts } from "./contract/records.ts"

/** Writes a consistent copy of the database at `source` to `target` (which must not exist). */
export const snapshotDatabase = (source: string, target: string): void => {
  const db = new Database(source, { readonly: true, fileMustExist: true })
  try {
    db.pragma("busy_timeout = 5000")
    db.prepare("VACUUM INTO ?").run(target)
  } finally {
    db.close()
  }
}

/** The table each count reads; a table a node does not have counts 0. */
const countedTables: Record<Exclude<keyof BackupCounts, "files">, string> = {
  beings: "beings",
  memories: "twin_memories",
  events: "calendar_events",
  todos: "todos",
  messages: "thread_messages",
  projects: "projects",
  listings: "market_listings"
}

export interface DatabaseReport {
  readonly counts: Omit<BackupCounts, "files">
  /** `PRAGMA integrity_check`'s lines other than "ok". */
  readonly integrityProblems: ReadonlyArray<string>
  /** The handle of the node's owner in this database, or null when nobody registered as one. */
  readonly ownerHandle: string | null
}

/** The owner's handle; null when there is none, or the table is not of the shape a node writes. */
const ownerHandleOf = (db: Database.Database): string | null => {
  try {
    const row = db.prepare("SELECT handle FROM beings WHERE is_owner = 1 AND kind = 'human'").get() as
      | { handle: string }
      | undefined
    return row?.handle ?? null
  } catch {
    return null
  }
}

/** The counts and integrity of a database file (a snapshot, never the live one). */
export const inspectDatabase = (file: string): DatabaseReport => {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const integrity = (db.pragma("integrity_check") as Array<{ integrity_check: string }>)
      .map((row) => row.integrity_check)
      .filter((line) => line !== "ok")
    const present = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map(
        (row) => row.name
      )
    )
    const count = (table: string) =>
      present.has(table) ? (db.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n : 0
    const counts = Object.fromEntries(
      Object.entries(countedTables).map(([name, table]) => [name, count(table)])
    ) as DatabaseReport["counts"]
    return { counts, integrityProblems: integrity, ownerHandle: present.has("beings") ? ownerHandleOf(db) : null }
  } finally {
    db.close()
  }
}

/**
 * Walking a folder of the file root the way files.list and files.search both read it (the first
 * document's skill rule 2). It sits beside the confinement it walks within because the files
 * feature, the twin's indexer and the market's module bundles all walk the same way: depth-first, folders before files,
 * each alphabetical; build and
 * VCS noise always skipped, dotfiles unless asked for. A symbolic link is shown only when it
 * resolves inside the root, and never descended into (a link to an ancestor would loop). Only
 * regular files and folders are walked: a FIFO, socket or device is left out.
 */
import type { Stats } from "node:fs"
import { lstat, readdir, stat } from "node:fs/promises"
import { join } from "node:path"
import type { ConfinedFolder } from "./file-root.ts"

const noise: ReadonlySet<string> = new Set(["node_modules", ".git", "dist", ".cache", "__pycache__"])

export interface WalkOptions {
  readonly recursive: boolean
  readonly includeHidden: boolean
  readonly signal: AbortSignal
}

export interface WalkEntry {
  /** Relative to the root, forward slashes. */
  readonly path: string
  readonly name: string
  readonly absolute: string
  readonly stats: Stats
  readonly isDir: boolean
}

/** Files and folders only: a FIFO, socket or device is never listed, so never opened. */
const usable = (stats: Stats) => stats.isFile() || stats.isDirectory()

const alphabetical = (a: string, b: string) => a.localeCompare(b, "en") || (a < b ? -1 : a > b ? 1 : 0)

const childPath = (parent: string, name: string) => (parent === "" ? name : `${parent}/${name}`)

/** The entries of one folder in walk order; a link escaping the root is left out. */
const entriesOf = async (
  root: ConfinedFolder,
  folder: { readonly absolute: string; readonly path: string },
  includeHidden: boolean
) => {
  const names = (await readdir(folder.absolute)).filter(
    (name) => !noise.has(name) && (includeHidden || !name.startsWith("."))
  )
  const entries: Array<WalkEntry & { readonly link: boolean }> = []
  for (const name of names) {
    const path = childPath(folder.path, name)
    const own = await lstat(join(folder.absolute, name)).catch(() => null)
    if (own === null) continue
    if (!own.isSymbolicLink()) {
      if (usable(own))
        entries.push({
          path,
          name,
          absolute: join(folder.absolute, name),
          stats: own,
          isDir: own.isDirectory(),
          link: false
        })
      continue
    }
    const target = await root.resolve(path).then(
      (resolved) => resolved.absolute,
      () => null
    )
    const stats = target === null ? null : await stat(target).catch(() => null)
    if (target !== null && stats !== null && usable(stats)) {
      entries.push({ path, name, absolute: target, stats, isDir: stats.isDirectory(), link: true })
    }
  }
  return entries.sort((a, b) => (a.isDir === b.isDir ? alphabetical(a.name, b.name) : a.isDir ? -1 : 1))
}

export async function* walk(
  root: ConfinedFolder,
  folder: { readonly absolute: string; readonly path: string },
  options: WalkOptions
): AsyncGenerator<WalkEntry> {
  for (const entry of await entriesOf(root, folder, options.includeHidden)) {
    options.signal.throwIfAborted()
    yield entry
    if (options.recursive && entry.isDir && !entry.link) yield* walk(root, entry, options)
  }
}

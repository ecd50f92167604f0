/**
 * Restores a backup into a node's folders while the node is stopped: DATA_DIR (the database, the key file),
 * FILES_DIR's stores and PLUGIN_DIR. Everything is first decrypted into a folder beside DATA_DIR and checked (every
 * SHA-256, the database's integrity); only then are the targets touched, so a wrong passphrase, a damaged file or a
 * newer format changes nothing. A target that holds anything is refused unless `force`, which moves it aside
 * (`<folder>.before-restore-<time>`), never deletes it.
 */
import { chmod, mkdir, readdir, rename, rm, stat } from "node:fs/promises"
import { dirname, join, resolve, sep } from "node:path"
import { encryptionKeyFileOf } from "../../kernel/encryption-key.ts"
import type { BackupCounts } from "./contract/records.ts"
import { hashProblems, joinInside, readBackup, UnreadableBackup } from "./archive-read.ts"
import { BACKED_UP_STORES, KEY_ENTRY } from "./archive-write.ts"
import { inspectDatabase } from "./snapshot.ts"

/** A restore refused before anything changed: the message says why and what to do. */
export class RestoreRefused extends Error {}

export interface RestoreTargets {
  readonly dataDir: string
  readonly filesDir: string
  readonly pluginDir: string
}

export interface RestoreOutcome {
  readonly counts: BackupCounts
  readonly createdAt: string
  /** The folders moved aside (with `force`), each as `from → to`. */
  readonly movedAside: ReadonlyArray<string>
  /** Whether the backup carried ENCRYPTION_KEY's material (now in `<DATA_DIR>/keys/ENCRYPTION_KEY`). */
  readonly restoredKey: boolean
}

const inside = (folder: string, root: string) => folder === root || folder.startsWith(root + sep)

const holdsAnything = async (folder: string) => {
  const entries = await readdir(folder).catch(() => null)
  return entries !== null && entries.length > 0
}

const stampOf = (now: Date) =>
  now
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "")

/** The folders a restore writes, outermost only (FILES_DIR inside DATA_DIR moves with it). */
const rootsOf = (targets: RestoreTargets) => {
  const all = [targets.dataDir, targets.filesDir, targets.pluginDir].map((folder) => resolve(folder))
  return [...new Set(all)].filter((folder, _, list) => !list.some((other) => other !== folder && inside(folder, other)))
}

/** Where each archive path is staged: the database and keys under `data/`, the rest as named. */
const stagedPath = (staging: string, path: string): string | null => {
  if (path === "node.db") return join(staging, "data", "node.db")
  if (path === KEY_ENTRY) return join(staging, "data", "keys", "ENCRYPTION_KEY")
  if (path.startsWith("files/") || path.startsWith("plugins/")) return joinInside(staging, path)
  return null
}

/** A backup decrypted and checked into its staging folder beside DATA_DIR, not yet placed. */
export interface StagedBackup {
  readonly staging: string
  readonly counts: BackupCounts
  readonly createdAt: string
  /** The handle of the backed-up node's owner (who signs in once it is restored). */
  readonly ownerHandle: string | null
  readonly stamp: string
}

/**
 * Decrypts the backup at `file` into a staging folder beside DATA_DIR and checks it (every SHA-256, the database's
 * integrity); nothing of the targets changes. Fails with UnreadableBackup, the staging folder removed.
 */
export const stageBackup = async (
  file: string,
  passphrase: string,
  targets: RestoreTargets,
  now: Date
): Promise<StagedBackup> => {
  const stamp = stampOf(now)
  const dataDir = resolve(targets.dataDir)
  await mkdir(dirname(dataDir), { recursive: true })
  const staging = `${dataDir}.restoring-${stamp}`
  await rm(staging, { recursive: true, force: true })
  try {
    const read = await readBackup(file, passphrase, (path) => stagedPath(staging, path))
    const problems = hashProblems(read)
    if (!read.sha256.has("node.db")) problems.push("it holds no node.db")
    if (problems.length > 0) throw new UnreadableBackup(`The backup is damaged: ${problems.slice(0, 3).join("; ")}.`)
    const report = inspectDatabase(join(staging, "data", "node.db"))
    if (report.integrityProblems.length > 0)
      throw new UnreadableBackup(`The backup's database fails its integrity check: ${report.integrityProblems[0]}`)
    return {
      staging,
      counts: { ...report.counts, files: read.files },
      createdAt: read.manifest.createdAt,
      ownerHandle: report.ownerHandle,
      stamp
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true })
    throw error
  }
}

/** The targets that hold anything: a restore moves them aside, or refuses without `force`. */
export const occupiedTargets = async (targets: RestoreTargets): Promise<Array<string>> => {
  const occupied: Array<string> = []
  for (const root of rootsOf(targets)) if (await holdsAnything(root)) occupied.push(root)
  return occupied
}

/**
 * Places a staged backup: the occupied targets moved aside, the staged folders moved in. Should a move fail, what
 * was placed is removed and the folders moved aside come back, so the node finds its old data. The staging folder
 * is removed either way.
 */
export const placeStagedBackup = async (
  staged: StagedBackup,
  targets: RestoreTargets
): Promise<{
  readonly movedAside: ReadonlyArray<string>
  readonly restoredKey: boolean
  /** Takes the restore back: each placed folder renamed `<folder>.failed-restore-<time>`, the moved ones back. */
  readonly undo: () => Promise<void>
}> => {
  const { staging, stamp } = staged
  const dataDir = resolve(targets.dataDir)
  const moved: Array<{ readonly root: string; readonly aside: string }> = []
  try {
    for (const root of await occupiedTargets(targets)) {
      const aside = `${root}.before-restore-${stamp}`
      await rename(root, aside)
      moved.push({ root, aside })
    }
    await mkdir(dataDir, { recursive: true })
    for (const name of await readdir(join(staging, "data")))
      await rename(join(staging, "data", name), join(dataDir, name))
    const restoredKey = await stat(encryptionKeyFileOf(dataDir)).then(
      () => true,
      () => false
    )
    if (restoredKey) await chmod(encryptionKeyFileOf(dataDir), 0o600)
    const filesDir = resolve(targets.filesDir)
    for (const store of BACKED_UP_STORES) {
      const from = join(staging, "files", store)
      if (!(await holdsAnything(from))) continue
      await mkdir(filesDir, { recursive: true })
      await rm(join(filesDir, store), { recursive: true, force: true })
      await rename(from, join(filesDir, store))
    }
    const pluginDir = resolve(targets.pluginDir)
    if (await holdsAnything(join(staging, "plugins"))) {
      await mkdir(pluginDir, { recursive: true })
      for (const name of await readdir(join(staging, "plugins")))
        await rename(join(staging, "plugins", name), join(pluginDir, name))
    }
    const undo = async () => {
      for (const { root, aside } of [...moved].reverse()) {
        await rename(root, `${root}.failed-restore-${stamp}`)
        await rename(aside, root)
      }
    }
    return { movedAside: moved.map(({ root, aside }) => `${root} → ${aside}`), restoredKey, undo }
  } catch (error) {
    // Only what this restore placed goes: every folder that held anything was moved aside first, and comes back.
    for (const { root, aside } of moved.reverse()) {
      await rm(root, { recursive: true, force: true })
      await rename(aside, root)
    }
    throw error
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
}

export const restoreBackup = async (
  file: string,
  passphrase: string,
  targets: RestoreTargets,
  options: { readonly force: boolean; readonly now: Date }
): Promise<RestoreOutcome> => {
  if (
    !(await stat(file).then(
      (stats) => stats.isFile(),
      () => false
    ))
  )
    throw new RestoreRefused(`There is no backup file at ${file}.`)
  const occupied = await occupiedTargets(targets)
  if (occupied.length > 0 && !options.force)
    throw new RestoreRefused(
      `${occupied.join(", ")} ${occupied.length === 1 ? "is" : "are"} not empty. Restore into an empty DATA_DIR, ` +
        "or add --force to move what is there aside (nothing is deleted)."
    )
  const staged = await stageBackup(file, passphrase, targets, options.now)
  const placed = await placeStagedBackup(staged, targets)
  return { counts: staged.counts, createdAt: staged.createdAt, ...placed }
}

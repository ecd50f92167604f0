/**
 * Writes one backup: the database's snapshot, FILES_DIR's stores, PLUGIN_DIR and the key material as a tar, gzipped,
 * encrypted to a passphrase with age (scrypt recipient), streamed to `<id>.tar.gz.age.partial` and renamed into
 * place once whole, with its summary beside it (`<id>.json`: what the list answers without the passphrase).
 */
import type * as Age from "age-encryption"
import { createHash } from "node:crypto"
import { createWriteStream } from "node:fs"
import { mkdir, opendir, rename, rm, stat, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { Readable, Transform } from "node:stream"
import { pipeline } from "node:stream/promises"
import { createGzip } from "node:zlib"
import { BACKUP_FORMAT, type Backup, type BackupCounts } from "./contract/records.ts"
import { inspectDatabase, snapshotDatabase } from "./snapshot.ts"
import { type TarSource, tarStream } from "./tar-stream.ts"
import { lazyModule } from "../../kernel/lazy-module.ts"

/** At first use, as every library only a backup, an export or an import needs (docs/benchmarks.md, "Idle RSS"). */
const age = lazyModule<typeof Age>("age-encryption")

/** The stores of FILES_DIR a backup holds (`upload-staging` holds only uploads not yet whole). */
export const BACKED_UP_STORES = ["uploads", "projects", "plugin-data"] as const

export const ARCHIVE_SUFFIX = ".tar.gz.age"
export const KEY_ENTRY = "keys/ENCRYPTION_KEY"

export interface BackupSources {
  /** The live SQLite file. */
  readonly databaseFile: string
  readonly filesDir: string
  readonly pluginDir: string
  /** ENCRYPTION_KEY's material, when the node has one. */
  readonly encryptionKey: string | null
  readonly nodeVersion: string
}

export interface Manifest {
  readonly format: number
  readonly nodeVersion: string
  readonly createdAt: string
  readonly counts: BackupCounts
  /** Each entry's SHA-256 (hex) by its path in the archive. */
  readonly sha256: Record<string, string>
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false
  )

/** Every regular file under `root`, as archive paths under `prefix` (symbolic links are not followed). */
async function* walk(root: string, prefix: string): AsyncGenerator<TarSource> {
  const dir = await opendir(root).catch(() => null)
  if (dir === null) return
  const entries: Array<{ name: string; folder: boolean }> = []
  for await (const entry of dir) {
    if (entry.isDirectory() || entry.isFile()) entries.push({ name: entry.name, folder: entry.isDirectory() })
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1))
  for (const entry of entries) {
    if (entry.folder) yield* walk(join(root, entry.name), `${prefix}${entry.name}/`)
    else yield { path: `${prefix}${entry.name}`, file: join(root, entry.name) }
  }
}

/** `backup-20261130T131154Z`: the UTC time in ISO 8601's basic form. */
export const backupIdAt = (date: Date) =>
  `backup-${date
    .toISOString()
    .replace(/\.\d{3}Z$/, "Z")
    .replace(/[-:]/g, "")}`

const freeId = async (backupDir: string, base: string) => {
  for (let n = 1; ; n += 1) {
    const id = n === 1 ? base : `${base}-${n}`
    const taken = await Promise.all(
      [`${id}${ARCHIVE_SUFFIX}`, `${id}${ARCHIVE_SUFFIX}.partial`, `${id}.json`].map((name) =>
        exists(join(backupDir, name))
      )
    )
    if (!taken.includes(true)) return id
  }
}

/** Writes the backup of `sources` into `backupDir`, encrypted to `passphrase`; answers its summary. */
export const writeBackup = async (
  sources: BackupSources,
  backupDir: string,
  passphrase: string,
  now: Date,
  /** A scheduled backup's summary says so: BACKUP_KEEP prunes only those. */
  scheduled = false
): Promise<Backup> => {
  await mkdir(backupDir, { recursive: true })
  const id = await freeId(backupDir, backupIdAt(now))
  const staging = join(backupDir, `.staging-${id}`)
  const partial = join(backupDir, `${id}${ARCHIVE_SUFFIX}.partial`)
  try {
    await mkdir(staging, { recursive: true })
    const snapshot = join(staging, "node.db")
    snapshotDatabase(sources.databaseFile, snapshot)
    const { counts: tableCounts } = inspectDatabase(snapshot)
    const createdAt = now.toISOString()
    let files = 0
    async function* entries(): AsyncGenerator<TarSource> {
      yield { path: "node.db", file: snapshot }
      for (const store of BACKED_UP_STORES) {
        for await (const source of walk(join(sources.filesDir, store), `files/${store}/`)) {
          files += 1
          yield source
        }
      }
      yield* walk(sources.pluginDir, "plugins/")
      if (sources.encryptionKey !== null) yield { path: KEY_ENTRY, bytes: Buffer.from(sources.encryptionKey, "utf8") }
    }
    const manifestOf = (written: ReadonlyArray<{ path: string; sha256: string }>): Manifest => ({
      format: BACKUP_FORMAT,
      nodeVersion: sources.nodeVersion,
      createdAt,
      counts: { ...tableCounts, files },
      sha256: Object.fromEntries(written.map((entry) => [entry.path, entry.sha256]))
    })
    let manifest: Manifest | null = null
    const tar = Readable.from(
      tarStream(entries(), (written) => {
        manifest = manifestOf(written)
        return [{ path: "manifest.json", bytes: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), mtime: now }]
      })
    )
    const encrypter = new (age().Encrypter)()
    encrypter.setPassphrase(passphrase)
    const gzipped = Readable.toWeb(tar.pipe(createGzip())) as ReadableStream<Uint8Array>
    const encrypted = await encrypter.encrypt(gzipped)
    const hash = createHash("sha256")
    let bytes = 0
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk)
        bytes += chunk.length
        done(null, chunk)
      }
    })
    await pipeline(
      Readable.fromWeb(encrypted as import("node:stream/web").ReadableStream),
      hashing,
      createWriteStream(partial)
    )
    const written = manifest as Manifest | null
    if (written === null) throw new Error("The archive ended before its manifest")
    const backup: Backup = { id, createdAt, bytes, sha256: hash.digest("hex"), counts: written.counts }
    await writeFile(join(backupDir, `${id}.json`), `${JSON.stringify({ ...backup, scheduled }, null, 2)}\n`)
    await rename(partial, join(backupDir, `${id}${ARCHIVE_SUFFIX}`))
    return backup
  } finally {
    await rm(staging, { recursive: true, force: true })
    await rm(partial, { force: true })
  }
}

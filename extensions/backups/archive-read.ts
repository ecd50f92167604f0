/**
 * Reads one backup as a stream: age decryption with the passphrase, gunzip, tar. Each file entry's SHA-256 is taken
 * as it passes; an entry may be written out (`sink`), the rest pass by. Memory stays flat: nothing is read whole but
 * the manifest. Paths are checked before anything is written: no absolute path, no `..`, nothing but regular files.
 */
import type * as Age from "age-encryption"
import { createHash } from "node:crypto"
import { createReadStream, createWriteStream, mkdirSync } from "node:fs"
import { dirname, join } from "node:path"
import { Readable } from "node:stream"
import type { ReadableStream as NodeReadableStream } from "node:stream/web"
import { finished } from "node:stream/promises"
import { createGunzip } from "node:zlib"
import type * as Tar from "tar"
import type { ReadEntry } from "tar"
import type { Manifest } from "./archive-write.ts"
import { BACKUP_FORMAT } from "./contract/records.ts"
import { lazyModule } from "../../kernel/lazy-module.ts"

/** At first use, as every library only a backup, an export or an import needs (docs/benchmarks.md, "Idle RSS"). */
const age = lazyModule<typeof Age>("age-encryption")
const tar = lazyModule<typeof Tar>("tar")

/** Why a backup cannot be read, as a stable code (the register page's restore answers it). */
export type UnreadableReason = "wrong_passphrase" | "not_a_backup" | "newer_backup_format" | "damaged_backup"

/** A backup that cannot be read: the message says why, in words for the person holding it. */
export class UnreadableBackup extends Error {
  readonly reason: UnreadableReason
  constructor(message: string, reason: UnreadableReason = "damaged_backup") {
    super(message)
    this.reason = reason
  }
}

const MAX_MANIFEST_BYTES = 64 * 1024 * 1024

export interface ReadBackup {
  readonly manifest: Manifest
  /** Each file entry's SHA-256 as read, by path. */
  readonly sha256: ReadonlyMap<string, string>
  /** The file entries under `files/` (the manifest's `counts.files`). */
  readonly files: number
}

const safePath = (path: string) =>
  path !== "" && !path.startsWith("/") && !path.split("/").some((part) => part === ".." || part === "")

const plainError = (error: unknown): UnreadableBackup => {
  if (error instanceof UnreadableBackup) return error
  const message = error instanceof Error ? error.message : String(error)
  if (/no identity matched|incorrect|passphrase/i.test(message))
    return new UnreadableBackup("The passphrase does not open this backup.", "wrong_passphrase")
  if (/header|intro|stanza|not an age|invalid/i.test(message) && !/tar/i.test(message))
    return new UnreadableBackup(`This is not a backup this node can read (${message.slice(0, 200)}).`, "not_a_backup")
  return new UnreadableBackup(`The backup is damaged: ${message.slice(0, 200)}`)
}

/**
 * Reads the backup at `file`. `sink(path)` answers where a file entry is written (a path on disk) or null to let it
 * pass. Fails with UnreadableBackup (wrong passphrase, damaged, not a backup, a newer format than `newestFormat`).
 */
export const readBackup = async (
  file: string,
  passphrase: string,
  sink: (path: string) => string | null,
  newestFormat: number = BACKUP_FORMAT
): Promise<ReadBackup> => {
  try {
    const decrypter = new (age().Decrypter)()
    decrypter.addPassphrase(passphrase)
    const encrypted = Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>
    const decrypted = await decrypter.decrypt(encrypted)
    const sha256 = new Map<string, string>()
    const writes: Array<Promise<void>> = []
    let manifestText: string | null = null
    let files = 0
    const problems: Array<string> = []
    const onEntry = (entry: ReadEntry) => {
      const path = entry.path
      if (entry.type !== "File") {
        if (entry.type !== "Directory") problems.push(`An entry that is not a file: ${path.slice(0, 200)}`)
        entry.resume()
        return
      }
      if (!safePath(path)) {
        problems.push(`An entry outside the archive's folder: ${path.slice(0, 200)}`)
        entry.resume()
        return
      }
      if (path.startsWith("files/")) files += 1
      const hash = createHash("sha256")
      const chunks: Array<Buffer> = []
      let size = 0
      const target = path === "manifest.json" ? null : sink(path)
      entry.on("data", (chunk: Buffer) => {
        hash.update(chunk)
        if (path === "manifest.json") {
          size += chunk.length
          if (size <= MAX_MANIFEST_BYTES) chunks.push(chunk)
        }
      })
      if (target !== null) {
        mkdirSync(dirname(target), { recursive: true })
        const out = createWriteStream(target)
        entry.pipe(out)
        writes.push(finished(out))
      }
      entry.on("end", () => {
        sha256.set(path, hash.digest("hex"))
        if (path === "manifest.json") manifestText = Buffer.concat(chunks).toString("utf8")
      })
    }
    const parser = new (tar().Parser)({ strict: true, onReadEntry: onEntry })
    const done = new Promise<void>((resolve, reject) => {
      parser.on("end", () => resolve())
      parser.on("error", reject)
    })
    const gunzip = createGunzip()
    const source = Readable.fromWeb(decrypted as NodeReadableStream<Uint8Array>)
    const failed = new Promise<never>((_, reject) => {
      source.on("error", reject)
      gunzip.on("error", reject)
    })
    source.pipe(gunzip).pipe(parser as unknown as NodeJS.WritableStream)
    await Promise.race([done, failed])
    await Promise.all(writes)
    if (problems.length > 0) throw new UnreadableBackup(`The backup is damaged: ${problems[0]}`)
    if (manifestText === null)
      throw new UnreadableBackup("The backup has no manifest.json: it is not a node backup.", "not_a_backup")
    const manifest = JSON.parse(manifestText) as Manifest
    if (typeof manifest.format !== "number" || typeof manifest.sha256 !== "object")
      throw new UnreadableBackup("The backup's manifest.json is not one this node reads.", "not_a_backup")
    if (manifest.format > newestFormat)
      throw new UnreadableBackup(
        `The backup is of format ${manifest.format}, newer than this node reads (${newestFormat}): update the node first.`,
        "newer_backup_format"
      )
    return { manifest, sha256, files }
  } catch (error) {
    throw plainError(error)
  }
}

/** The entries whose hash is not the manifest's, and those the manifest names but the archive lacks. */
export const hashProblems = (read: ReadBackup): Array<string> => {
  const problems: Array<string> = []
  for (const [path, expected] of Object.entries(read.manifest.sha256)) {
    const actual = read.sha256.get(path)
    if (actual === undefined) problems.push(`${path} is missing from the archive`)
    else if (actual !== expected) problems.push(`${path} does not match its SHA-256 in the manifest`)
  }
  for (const path of read.sha256.keys()) {
    if (path !== "manifest.json" && !(path in read.manifest.sha256))
      problems.push(`${path} is in the archive but not in its manifest`)
  }
  return problems
}

export const joinInside = (root: string, path: string) => join(root, ...path.split("/"))

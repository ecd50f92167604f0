/**
 * A tar stream written entry by entry from files on disk, each entry's SHA-256 taken from the very bytes written (so
 * the manifest describes the archive, even if a file changed while it was read). Headers are node-tar's (ustar, a pax
 * header before one whose path or size does not fit); the body is read in chunks, so memory stays flat.
 */
import { createHash } from "node:crypto"
import { open } from "node:fs/promises"
import type * as Tar from "tar"
import { lazyModule } from "../../kernel/lazy-module.ts"

/** At first use, as every library only a backup, an export or an import needs (docs/benchmarks.md, "Idle RSS"). */
const tar = lazyModule<typeof Tar>("tar")

const BLOCK = 512
const CHUNK = 256 * 1024

/** One entry to write: its path inside the archive, and its bytes from a file or given. */
export type TarSource =
  | { readonly path: string; readonly file: string }
  | { readonly path: string; readonly bytes: Uint8Array; readonly mtime?: Date }

export interface WrittenEntry {
  readonly path: string
  readonly size: number
  readonly sha256: string
}

const headerOf = (path: string, size: number, mtime: Date): Array<Buffer> => {
  const fields = { path, size, mode: 0o644, mtime, type: "File" as const, uid: 0, gid: 0 }
  const header = new (tar().Header)(fields)
  const block = Buffer.alloc(BLOCK)
  const needPax = header.encode(block, 0)
  return needPax ? [new (tar().Pax)(fields).encode(), block] : [block]
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK)

/** The bytes of one entry: header, body (exactly the size the header gives), padding; `written` receives its hash. */
async function* entryBytes(source: TarSource, written: (entry: WrittenEntry) => void): AsyncGenerator<Buffer> {
  const hash = createHash("sha256")
  if ("bytes" in source) {
    const body = Buffer.from(source.bytes)
    yield* headerOf(source.path, body.length, source.mtime ?? new Date())
    hash.update(body)
    yield body
    yield padding(body.length)
    written({ path: source.path, size: body.length, sha256: hash.digest("hex") })
    return
  }
  const handle = await open(source.file, "r")
  try {
    const stats = await handle.stat()
    const size = stats.size
    yield* headerOf(source.path, size, stats.mtime)
    let position = 0
    while (position < size) {
      const chunk = Buffer.alloc(Math.min(CHUNK, size - position))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position)
      // A file that shrank while read keeps its header's size: zeros, which its hash (and a verify) then shows.
      const body = bytesRead === 0 ? chunk : chunk.subarray(0, bytesRead)
      hash.update(body)
      position += body.length
      yield body
    }
    yield padding(size)
    written({ path: source.path, size, sha256: hash.digest("hex") })
  } finally {
    await handle.close()
  }
}

/**
 * The tar of `sources` (an async list, so folders are walked as they are written), then the entries `closing` makes
 * from what was written (the manifest), then the end-of-archive blocks.
 */
export async function* tarStream(
  sources: AsyncIterable<TarSource>,
  closing: (written: ReadonlyArray<WrittenEntry>) => ReadonlyArray<TarSource>
): AsyncGenerator<Buffer> {
  const written: Array<WrittenEntry> = []
  for await (const source of sources) yield* entryBytes(source, (entry) => written.push(entry))
  for (const source of closing(written)) yield* entryBytes(source, () => undefined)
  yield Buffer.alloc(BLOCK * 2)
}

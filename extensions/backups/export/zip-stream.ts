/**
 * A ZIP written entry by entry as it is read (fflate's streaming Zip): the entries come as a Stream, each with its
 * bytes given or read from a file in chunks, and the archive's bytes go out as a Stream, so an export of any size
 * holds one chunk at a time.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import type * as Fflate from "fflate"
import { open } from "node:fs/promises"
import { lazyModule } from "../../../kernel/lazy-module.ts"

/** At first use, as every library only a backup, an export or an import needs (docs/benchmarks.md, "Idle RSS"). */
const fflate = lazyModule<typeof Fflate>("fflate")

export type ZipSource =
  | { readonly name: string; readonly text: string }
  | { readonly name: string; readonly file: string }

const CHUNK = 256 * 1024

/** A file's bytes in chunks, each a fresh buffer (fflate may keep the last chunk it was given), then an empty end. */
async function* fileChunks(file: string): AsyncGenerator<Uint8Array> {
  const handle = await open(file, "r")
  try {
    for (;;) {
      const buffer = new Uint8Array(CHUNK)
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, null)
      yield buffer.subarray(0, bytesRead)
      if (bytesRead === 0) return
    }
  } finally {
    await handle.close()
  }
}

export const zipStream = <E>(sources: Stream.Stream<ZipSource, E>): Stream.Stream<Uint8Array, E | Error> =>
  Stream.suspend(() => {
    const out: Array<Uint8Array> = []
    let failure: Error | null = null
    const zip = new (fflate().Zip)((error, data) => {
      if (error !== null) failure = error
      else out.push(data)
    })
    const drain = Effect.suspend(() => (failure !== null ? Effect.fail(failure) : Effect.succeed(out.splice(0))))
    const entry = (source: ZipSource): Stream.Stream<Uint8Array, Error> => {
      const deflate = new (fflate().ZipDeflate)(source.name, { level: 6 })
      zip.add(deflate)
      const chunks =
        "text" in source
          ? Stream.make(new TextEncoder().encode(source.text))
          : Stream.fromAsyncIterable(fileChunks(source.file), (error) =>
              error instanceof Error ? error : new Error(String(error))
            )
      const last = "text" in source
      return chunks.pipe(
        Stream.mapConcatEffect((chunk) =>
          Effect.zipRight(
            Effect.sync(() => deflate.push(chunk, last || chunk.length === 0)),
            drain
          )
        )
      )
    }
    return Stream.concat(
      Stream.flatMap(sources, entry),
      Stream.fromIterableEffect(
        Effect.zipRight(
          Effect.sync(() => zip.end()),
          drain
        )
      )
    )
  })

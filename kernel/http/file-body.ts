/**
 * A file's bytes (a range of them) written onto the response from a pool of reused buffers.
 *
 * Why not the file handle's read stream: it allocates a fresh 64 KiB Buffer per read, each
 * reported to V8 as external memory, and at 100 MB/s that asks for a full mark-compact of the
 * node's heap every few hundred milliseconds (seen with --trace-gc: 100–160 ms of marking each,
 * downloads at a third of a bare Node server's speed). Buffers taken from a pool and given back
 * once Node has handed their bytes to the socket allocate nothing per read.
 *
 * Up to two buffers of one download are in flight, so the next read overlaps the last write.
 */
import { once } from "node:events"
import type { FileHandle } from "node:fs/promises"
import type { ServerResponse } from "node:http"
import { selfSendingBody } from "./self-sending-body.ts"

const BUFFER_BYTES = 256 * 1024
/** Buffers kept for reuse across downloads (8 MiB); more are allocated while many run at once. */
const POOL_LIMIT = 32
const pool: Array<Buffer> = []

const take = () => pool.pop() ?? Buffer.allocUnsafeSlow(BUFFER_BYTES)
const giveBack = (buffer: Buffer) => {
  if (pool.length < POOL_LIMIT) pool.push(buffer)
}

/**
 * Resolves when Node's buffer has drained; rejects when the response closes first or the signal
 * aborts. The listener that did not fire is removed, so a long download does not pile them up.
 */
const drained = async (outgoing: ServerResponse, signal: AbortSignal) => {
  const settled = new AbortController()
  const either = AbortSignal.any([signal, settled.signal])
  try {
    await Promise.race([
      once(outgoing, "drain", { signal: either }),
      once(outgoing, "close", { signal: either }).then(() => {
        throw new Error("the client went away")
      })
    ])
  } finally {
    settled.abort()
  }
}

/** Bytes `start`..`end` (inclusive) of the open file; the handle is closed however it ends. */
export const fileBody = (handle: FileHandle, start: number, end: number) =>
  selfSendingBody({
    discard: () => handle.close(),
    sendTo: async (outgoing, signal) => {
      try {
        let position = start
        while (position <= end) {
          signal.throwIfAborted()
          const buffer = take()
          const { bytesRead } = await handle.read(buffer, 0, Math.min(BUFFER_BYTES, end - position + 1), position)
          if (bytesRead === 0) {
            giveBack(buffer)
            throw new Error("the file became shorter while it was being sent")
          }
          position += bytesRead
          outgoing.write(buffer.subarray(0, bytesRead), (error) => {
            // Only once Node is done with the bytes may the buffer be read into again.
            if (error === null || error === undefined) giveBack(buffer)
          })
          if (outgoing.writableLength >= 2 * BUFFER_BYTES) await drained(outgoing, signal)
        }
        outgoing.end()
      } catch (error) {
        // The length promised in the headers cannot be kept: the connection must not be reused.
        outgoing.destroy()
        throw error
      } finally {
        await handle.close()
      }
    }
  })

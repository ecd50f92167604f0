/** A run's stdout or stderr, kept up to a cap: a program that prints forever cannot fill the node's memory. */
import { sandboxLimits } from "./limits.ts"

export interface CappedText {
  readonly push: (chunk: Uint8Array | string) => void
  readonly text: () => string
}

export const cappedText = (limit: number = sandboxLimits.outputBytes): CappedText => {
  const chunks: Array<Buffer> = []
  let kept = 0
  let dropped = 0
  return {
    push: (chunk) => {
      const bytes =
        typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
      const room = limit - kept
      if (room > 0) chunks.push(bytes.subarray(0, room))
      kept += Math.min(Math.max(room, 0), bytes.length)
      dropped += Math.max(0, bytes.length - Math.max(room, 0))
    },
    text: () => Buffer.concat(chunks).toString("utf8") + (dropped > 0 ? `\n[… ${dropped} more bytes cut]` : "")
  }
}

/**
 * A `ws` WebSocket as the connection registry sees it (connections.ts `LiveSocket`).
 *
 * An event's frame is written to the socket's stream directly, framed once for every socket: the
 * registry hands each socket of an event's audience the same payload, and `ws`'s own `send` would
 * build a frame header, an options object and a two-chunk corked write for every one of them
 * (docs/benchmarks.md, "One event → the last of 1,000 sockets"). This is safe while nothing else
 * queues frames inside `ws`: the channel's server compresses nothing (no permessage-deflate) and
 * sends no Blob, so every frame of `ws`'s own (hello, replies, pings, close) is written to the
 * stream as it is sent, and frames keep their order.
 */
import type { Duplex } from "node:stream"
import { WebSocket } from "ws"
import type { LiveSocket } from "./connections.ts"

/** A socket this far behind on its sends is a client that cannot keep up: it is cut off. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024

/** How long a closed socket may take to answer the close before it is cut. */
const CLOSE_GRACE_MS = 1000

/** One unmasked, final text frame (RFC 6455 §5.2) carrying `payload`. */
export const textFrame = (payload: Buffer): Buffer => {
  const length = payload.length
  const headerLength = length < 126 ? 2 : length < 65536 ? 4 : 10
  const frame = Buffer.allocUnsafe(headerLength + length)
  frame[0] = 0x81
  if (length < 126) frame[1] = length
  else if (length < 65536) {
    frame[1] = 126
    frame.writeUInt16BE(length, 2)
  } else {
    frame[1] = 127
    frame.writeUInt32BE(Math.floor(length / 2 ** 32), 2)
    frame.writeUInt32BE(length >>> 0, 6)
  }
  payload.copy(frame, headerLength)
  return frame
}

/** The last payload framed, so that the sockets of one event share one frame. */
let lastPayload: Buffer | null = null
let lastFrame: Buffer | null = null
const framedOnce = (payload: Buffer): Buffer => {
  if (payload !== lastPayload || lastFrame === null) {
    lastFrame = textFrame(payload)
    lastPayload = payload
  }
  return lastFrame
}

/** `ws` is the socket `ws` made of `stream`, the upgraded connection (the request's socket). */
export const liveSocket = (ws: WebSocket, stream: Duplex): LiveSocket => ({
  send: (payload) => {
    if (ws.readyState !== WebSocket.OPEN) return
    if (stream.writableLength > MAX_BUFFERED_BYTES) ws.terminate()
    else stream.write(framedOnce(payload))
  },
  ping: () => ws.ping(),
  close: (code, reason) => {
    ws.close(code, reason)
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref()
  },
  terminate: () => ws.terminate()
})

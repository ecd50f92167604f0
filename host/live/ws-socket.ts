/** A `ws` WebSocket as the connection registry sees it (connections.ts `LiveSocket`). */
import type { WebSocket } from "ws"
import type { LiveSocket } from "./connections.ts"

/** A socket this far behind on its sends is a client that cannot keep up: it is cut off. */
export const MAX_BUFFERED_BYTES = 4 * 1024 * 1024

/** How long a closed socket may take to answer the close before it is cut. */
const CLOSE_GRACE_MS = 1000

export const liveSocket = (ws: WebSocket): LiveSocket => ({
  send: (frame) => {
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) ws.terminate()
    else ws.send(frame, { binary: false })
  },
  ping: () => ws.ping(),
  close: (code, reason) => {
    ws.close(code, reason)
    setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref()
  },
  terminate: () => ws.terminate()
})

/**
 * The live channel, fed by the test: `fakeLive()` puts a WebSocket in the page that connects to
 * nothing, starts the app's one `liveChannel` on it, and lets the test send the frames the node
 * would (`hello`, then any event of the contract) and read what the page asked for (`subscribe`).
 * The channel is stopped and the real WebSocket put back after each test.
 */
import type { NodeEvent } from "../../../host/contract/events.ts"
import { liveChannel } from "../../../ui/live/live-channel.ts"

class FakeSocket extends EventTarget {
  static last: FakeSocket | null = null
  readyState = 0
  readonly sent: Array<unknown> = []
  constructor() {
    super()
    FakeSocket.last = this
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data))
  }
  close(): void {
    this.readyState = 3
  }
  receive(frame: unknown): void {
    this.dispatchEvent(new MessageEvent("message", { data: JSON.stringify(frame) }))
  }
}

const RealWebSocket = globalThis.WebSocket

export interface FakeLive {
  /** Greets the page as the node does when a socket opens: the cue to load again. */
  readonly hello: () => void
  /** Sends one event frame. */
  readonly send: (event: NodeEvent | Record<string, unknown>) => void
  /** What the page sent on the socket (`{ type: "subscribe", topic }`). */
  readonly sent: () => ReadonlyArray<unknown>
}

export const fakeLive = (): FakeLive => {
  Object.assign(FakeSocket, { OPEN: 1, CONNECTING: 0, CLOSED: 3, CLOSING: 2 })
  globalThis.WebSocket = FakeSocket as unknown as typeof WebSocket
  liveChannel.start()
  const socket = (): FakeSocket => {
    if (FakeSocket.last === null) throw new Error("The live channel opened no socket")
    return FakeSocket.last
  }
  return {
    hello: () => {
      socket().readyState = 1
      socket().receive({ type: "hello", beingId: "b-owner", serverTime: new Date().toISOString() })
    },
    send: (event) => socket().receive(event),
    sent: () => socket().sent
  }
}

afterEach(() => {
  liveChannel.stop()
  FakeSocket.last = null
  globalThis.WebSocket = RealWebSocket
})

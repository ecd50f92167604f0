/**
 * A browser tab's live channel for API tests: a real `ws` client on /api/ws carrying the
 * client's session cookie. Frames are kept in order; tests wait for the one they expect.
 */
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { WebSocket } from "ws"
import { NodeEvent } from "../../host/contract/events.ts"
import { ServerReply } from "../../host/live/contract/protocol.ts"
import type { Client, NodeServices, TestNode } from "./node.ts"

/** Every frame the node may send on the live channel: an event, or its answer to a client message. */
export const LiveFrame = Schema.Union(NodeEvent, ServerReply)
export type LiveFrame = typeof LiveFrame.Type
export type LiveFrameType = LiveFrame["type"]
export type FrameOf<T extends LiveFrameType> = Extract<LiveFrame, { readonly type: T }>

const decodeFrame = Schema.decodeUnknownEither(Schema.parseJson(LiveFrame))

export interface Closed {
  readonly code: number
  readonly reason: string
}

const cookieHeader = (client: Client | undefined) =>
  client === undefined || client.cookieCount === 0 ? {} : { cookie: client.cookieHeader() }

export class LiveTab {
  readonly frames: Array<LiveFrame> = []
  /** Frames the contract does not describe: a test waiting on this tab fails with them. */
  readonly strayFrames: Array<string> = []
  readonly closed: Promise<Closed>
  readonly socket: WebSocket
  private readonly waiters: Array<() => void> = []

  constructor(socket: WebSocket) {
    this.socket = socket
    socket.on("message", (data) => {
      const decoded = decodeFrame(String(data))
      if (decoded._tag === "Right") this.frames.push(decoded.right)
      else this.strayFrames.push(String(data))
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => resolve({ code, reason: String(reason) }))
    )
  }

  /**
   * Opens a tab as `client` (no client: no cookie); resolves once `hello` has come (it stays the
   * first frame), which is when the node has registered the socket.
   */
  static async open(node: TestNode, client?: Client, headers: Record<string, string> = {}): Promise<LiveTab> {
    const socket = new WebSocket(`${node.url.replace(/^http/, "ws")}/api/ws`, {
      headers: { ...cookieHeader(client), ...headers }
    })
    const tab = new LiveTab(socket)
    await new Promise((resolve, reject) => {
      socket.once("open", resolve)
      socket.once("error", reject)
    })
    await tab.indexOf((frame) => frame.type === "hello", 5000)
    return tab
  }

  /** Takes the first frame (in arrival order) that matches, waiting for it if it has not come yet. */
  async next(match: (frame: LiveFrame) => boolean = () => true, timeoutMs = 5000): Promise<LiveFrame> {
    const index = await this.indexOf(match, timeoutMs)
    return this.frames.splice(index, 1)[0]!
  }

  /**
   * Takes every frame up to and including the first that matches: a test's way to prove that
   * something did not arrive (the node sends in order, so it would have come before).
   */
  async upTo(match: (frame: LiveFrame) => boolean, timeoutMs = 5000): Promise<Array<LiveFrame>> {
    const index = await this.indexOf(match, timeoutMs)
    return this.frames.splice(0, index + 1)
  }

  private async indexOf(match: (frame: LiveFrame) => boolean, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      if (this.strayFrames.length > 0) throw new Error(`frames outside the contract: ${this.strayFrames.join(", ")}`)
      const index = this.frames.findIndex(match)
      if (index >= 0) return index
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms; frames: ${JSON.stringify(this.frames)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Takes the first frame of one type, typed as that frame. */
  ofType = <T extends LiveFrameType>(type: T, timeoutMs = 5000): Promise<FrameOf<T>> =>
    this.next((frame) => frame.type === type, timeoutMs) as Promise<FrameOf<T>>

  /** Takes the first frame of one type that also matches. */
  nextOf = <T extends LiveFrameType>(
    type: T,
    match: (frame: FrameOf<T>) => boolean = () => true,
    timeoutMs = 5000
  ): Promise<FrameOf<T>> =>
    this.next((frame) => frame.type === type && match(frame as FrameOf<T>), timeoutMs) as Promise<FrameOf<T>>

  send(message: unknown) {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message))
  }

  close() {
    this.socket.close()
    return this.closed
  }
}

/** The status a refused handshake was answered with, and its body. */
export const refusedHandshake = (
  node: TestNode,
  client?: Client,
  headers: Record<string, string> = {},
  path = "/api/ws"
) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const socket = new WebSocket(node.url.replace(/^http/, "ws") + path, {
      headers: { ...cookieHeader(client), ...headers }
    })
    socket.once("open", () => reject(new Error("the handshake was accepted")))
    socket.once("unexpected-response", (_request, response) => {
      let text = ""
      response.on("data", (chunk: Buffer) => (text += chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }))
    })
    socket.once("error", () => {})
  })

/** Runs an Effect against the node's own services. */
export const inNode = <A, E>(node: TestNode, effect: Effect.Effect<A, E, NodeServices>): Promise<A> =>
  node.runtime.runPromise(effect)

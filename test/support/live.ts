/**
 * A browser tab's live channel for API tests: a real `ws` client on /api/ws carrying the
 * client's session cookie. Frames are kept in order; tests wait for the one they expect.
 */
import * as Effect from "effect/Effect"
import { WebSocket } from "ws"
import type { Client, TestNode } from "./node.ts"

export interface Closed {
  readonly code: number
  readonly reason: string
}

const cookieHeader = (client: Client | undefined) =>
  client === undefined || client.cookies.size === 0 ? {} : { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") }

export class LiveTab {
  readonly frames: Array<any> = []
  readonly closed: Promise<Closed>
  readonly socket: WebSocket
  private readonly waiters: Array<() => void> = []

  constructor(socket: WebSocket) {
    this.socket = socket
    socket.on("message", (data) => {
      this.frames.push(JSON.parse(String(data)))
      for (const wake of this.waiters.splice(0)) wake()
    })
    this.closed = new Promise((resolve) => socket.on("close", (code, reason) => resolve({ code, reason: String(reason) })))
  }

  /**
   * Opens a tab as `client` (no client: no cookie); resolves once `hello` has come (it stays the
   * first frame), which is when the node has registered the socket.
   */
  static async open(node: TestNode, client?: Client, headers: Record<string, string> = {}): Promise<LiveTab> {
    const socket = new WebSocket(`${node.url.replace(/^http/, "ws")}/api/ws`, { headers: { ...cookieHeader(client), ...headers } })
    const tab = new LiveTab(socket)
    await new Promise((resolve, reject) => {
      socket.once("open", resolve)
      socket.once("error", reject)
    })
    await tab.indexOf((frame) => frame.type === "hello", 5000)
    return tab
  }

  /** Takes the first frame (in arrival order) that matches, waiting for it if it has not come yet. */
  async next(match: (frame: any) => boolean = () => true, timeoutMs = 5000): Promise<any> {
    const index = await this.indexOf(match, timeoutMs)
    return this.frames.splice(index, 1)[0]
  }

  /**
   * Takes every frame up to and including the first that matches: a test's way to prove that
   * something did not arrive (the node sends in order, so it would have come before).
   */
  async upTo(match: (frame: any) => boolean, timeoutMs = 5000): Promise<Array<any>> {
    const index = await this.indexOf(match, timeoutMs)
    return this.frames.splice(0, index + 1)
  }

  private async indexOf(match: (frame: any) => boolean, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
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

  ofType = (type: string) => this.next((frame) => frame.type === type)

  send(message: unknown) {
    this.socket.send(typeof message === "string" ? message : JSON.stringify(message))
  }

  close() {
    this.socket.close()
    return this.closed
  }
}

/** The status a refused handshake was answered with, and its body. */
export const refusedHandshake = (node: TestNode, client?: Client, headers: Record<string, string> = {}, path = "/api/ws") =>
  new Promise<{ status: number; body: any }>((resolve, reject) => {
    const socket = new WebSocket(node.url.replace(/^http/, "ws") + path, { headers: { ...cookieHeader(client), ...headers } })
    socket.once("open", () => reject(new Error("the handshake was accepted")))
    socket.once("unexpected-response", (_request, response) => {
      let text = ""
      response.on("data", (chunk: Buffer) => (text += chunk))
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }))
    })
    socket.once("error", () => {})
  })

/** Runs an Effect against the node's own services. */
export const inNode = <A>(node: TestNode, effect: Effect.Effect<A, unknown, any>): Promise<A> => node.runtime.runPromise(effect)

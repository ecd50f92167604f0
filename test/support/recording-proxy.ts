/**
 * A tiny HTTP proxy between two nodes that records every body crossing it, both ways, so a test
 * can show what an eavesdropper on the wire would read. Put to sleep, it drops each connection
 * at once, as a node that is down would. Its `target` may be changed while it runs (another
 * machine answering at the same URL).
 */
import { createServer, request, type IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"

export interface Crossing {
  readonly path: string
  readonly request: string
  readonly response: string
}

export interface RecordingProxy {
  readonly url: string
  readonly crossings: Array<Crossing>
  asleep: boolean
  /** Where it forwards to. */
  target: string
  readonly close: () => Promise<void>
}

const bodyOf = (stream: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Array<Buffer> = []
    stream.on("data", (chunk: Buffer) => chunks.push(chunk))
    stream.on("end", () => resolve(Buffer.concat(chunks)))
    stream.on("error", reject)
  })

export const recordingProxy = async (target: string): Promise<RecordingProxy> => {
  const proxy: { asleep: boolean; target: string; crossings: Array<Crossing> } = {
    asleep: false,
    target,
    crossings: []
  }
  const server = createServer(async (incoming, outgoing) => {
    if (proxy.asleep) {
      incoming.socket.destroy()
      return
    }
    const sent = await bodyOf(incoming)
    const to = new URL(proxy.target)
    const forwarded = request(
      {
        host: to.hostname,
        port: to.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: to.host }
      },
      async (answer) => {
        const received = await bodyOf(answer)
        proxy.crossings.push({
          path: incoming.url ?? "",
          request: sent.toString("utf8"),
          response: received.toString("utf8")
        })
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers)
        outgoing.end(received)
      }
    )
    forwarded.on("error", () => outgoing.destroy())
    forwarded.end(sent)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  })
}

/**
 * The registry's `ws` socket (host/live/ws-socket.ts) over real sockets: an event's frame is built
 * once and written to every socket's stream as it is (not through `ws`'s per-socket `send`), clients
 * read it as the text frame it is at every length class, and a socket too far behind is cut off.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { once } from "node:events"
import type { IncomingMessage } from "node:http"
import type { AddressInfo } from "node:net"
import { WebSocket, WebSocketServer } from "ws"
import { liveSocket, MAX_BUFFERED_BYTES } from "../../../host/live/ws-socket.ts"

const servers: Array<WebSocketServer> = []
afterEach(async () => {
  vi.restoreAllMocks()
  for (const server of servers.splice(0)) {
    for (const client of server.clients) client.terminate()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** `count` connected pairs: the server's end wrapped as the registry wraps it, and the client. */
const pairs = async (count: number) => {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" })
  servers.push(wss)
  await once(wss, "listening")
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`
  const made = []
  for (let i = 0; i < count; i++) {
    const accepted = once(wss, "connection")
    const client = new WebSocket(url)
    const [server, request] = (await accepted) as [WebSocket, IncomingMessage]
    await once(client, "open")
    made.push({ server, stream: request.socket, socket: liveSocket(server, request.socket), client })
  }
  return made
}

const nextText = (client: WebSocket) =>
  new Promise<string>((resolve) =>
    client.once("message", (data, isBinary) => {
      expect(isBinary).toBe(false)
      resolve(String(data))
    })
  )

describe("an event's frame on real sockets", () => {
  it("is framed once per event and written to every socket's stream, not through ws's send", async () => {
    const fleet = await pairs(3)
    const sends = fleet.map(({ server }) => vi.spyOn(server, "send"))
    const writes = fleet.map(({ stream }) => vi.spyOn(stream, "write"))
    const payload = Buffer.from(JSON.stringify({ type: "signal.updated", n: 1 }))
    const read = Promise.all(fleet.map(({ client }) => nextText(client)))
    for (const { socket } of fleet) socket.send(payload)
    expect(await read).toEqual(fleet.map(() => payload.toString()))
    for (const send of sends) expect(send).not.toHaveBeenCalled()
    const written = writes.map((write) => write.mock.calls.map((call) => call[0]))
    expect(written.map((calls) => calls.length)).toEqual([1, 1, 1])
    // One frame object for the event, shared by every socket.
    expect(written[1]![0]).toBe(written[0]![0])
    expect(written[2]![0]).toBe(written[0]![0])
  })

  it("reads back as the same text at every length class of the frame header, in order with ws's own frames", async () => {
    const [{ server, socket, client }] = await pairs(1)
    for (const length of [0, 125, 126, 65535, 65536, 200_000]) {
      const text = "x".repeat(length)
      const read = nextText(client)
      socket.send(Buffer.from(text))
      expect(await read).toBe(text)
    }
    const received: Array<string> = []
    client.on("message", (data) => received.push(String(data)))
    const done = new Promise<void>((resolve) => client.on("message", () => received.length === 4 && resolve()))
    server.send("ws 1")
    socket.send(Buffer.from("event 1"))
    server.send("ws 2")
    socket.send(Buffer.from("event 2"))
    await done
    expect(received).toEqual(["ws 1", "event 1", "ws 2", "event 2"])
  })

  it("sends nothing once the socket is closing", async () => {
    const [{ server, stream, socket }] = await pairs(1)
    server.close(1000, "bye")
    const write = vi.spyOn(stream, "write")
    socket.send(Buffer.from("late"))
    expect(write).not.toHaveBeenCalled()
  })

  it("cuts off a client more than MAX_BUFFERED_BYTES behind", async () => {
    const [{ stream, socket, client }] = await pairs(1)
    // The client stops reading: the kernel's buffers fill, then the server's stream holds the rest.
    ;(client as unknown as { _socket: { pause: () => void } })._socket.pause()
    const closed = new Promise<number>((resolve) => client.once("close", (code) => resolve(code)))
    const chunk = Buffer.alloc(1024 * 1024, 0x61)
    for (let i = 0; i < 64 && stream.writableLength <= MAX_BUFFERED_BYTES; i++) socket.send(chunk)
    expect(stream.writableLength).toBeGreaterThan(MAX_BUFFERED_BYTES)
    socket.send(chunk)
    ;(client as unknown as { _socket: { resume: () => void } })._socket.resume()
    expect(await closed).toBe(1006)
  })
})

/**
 * The node's http.Server hands every WebSocket handshake to the live channel's route: one that
 * comes before the channel set its route waits for it (the node listens before its services are
 * built), and one that comes after the channel stopped is refused with 503.
 */
import type { AddressInfo } from "node:net"
import { connect } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { UpgradeRoutingServer } from "../../../host/live/server.ts"

const handshake =
  "GET /api/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

/** Sends a handshake and answers the first line the server writes back. */
const firstLine = (port: number) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(handshake))
    let text = ""
    socket.on("data", (chunk) => {
      text += chunk.toString()
      if (text.includes("\r\n")) {
        resolve(text.split("\r\n")[0]!)
        socket.destroy()
      }
    })
    socket.on("error", reject)
  })

/** The node's server, telling the test when a handshake has reached it (its `emit` keeps 'upgrade' from listeners). */
class ObservedServer extends UpgradeRoutingServer {
  readonly handshakes: Array<() => void> = []
  override emit(event: string | symbol, ...args: Array<unknown>): boolean {
    const handled = super.emit(event as string, ...args)
    if (event === "upgrade") for (const heard of this.handshakes.splice(0)) heard()
    return handled
  }
}

let server: ObservedServer | undefined
afterEach(() => new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve())))

const listening = async () => {
  server = new ObservedServer()
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  return (server.address() as AddressInfo).port
}

/** Resolves once the server has the handshake: it is then waiting, whatever the route does next. */
const arrived = () => new Promise<void>((resolve) => server!.handshakes.push(resolve))

describe("the node's upgrade routing", () => {
  it("holds a handshake made before the live channel is up until its route is set", async () => {
    const port = await listening()
    const answer = firstLine(port)
    await arrived()
    server!.routeUpgrades((_request, socket) => socket.end("HTTP/1.1 101 Switching Protocols\r\n\r\n"))
    expect(await answer).toBe("HTTP/1.1 101 Switching Protocols")
  })

  it("refuses with 503 a handshake made after the live channel stopped, and those still waiting when it stops", async () => {
    const port = await listening()
    const waiting = firstLine(port)
    await arrived()
    server!.routeUpgrades(null)
    expect(await waiting).toBe("HTTP/1.1 503 Service Unavailable")
    expect(await firstLine(port)).toBe("HTTP/1.1 503 Service Unavailable")
  })
})

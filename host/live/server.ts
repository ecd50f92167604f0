/**
 * The node's http.Server, made here so that WebSocket handshakes never reach the HTTP
 * platform. The platform registers an 'upgrade' listener of its own; had it and the live
 * channel both answered one handshake, the platform's 404 would land on the upgraded socket
 * and the client would read garbage ("RSV1 must be clear"). So every 'upgrade' event goes to
 * the one route set here and to no listener. A handshake that comes before the live channel set
 * its route (the node listens before its services are built) waits for it, as an HTTP request
 * waits for the app (http/server.ts); once the channel has stopped, a handshake is refused.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { Server, type IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"

export type UpgradeRoute = (request: IncomingMessage, socket: Duplex, head: Buffer) => void

const refuse = (socket: Duplex) =>
  socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")

export class UpgradeRoutingServer extends Server {
  #route: UpgradeRoute | null = null
  /** Handshakes waiting for the first route; null once a route was set (after it, none waits). */
  #waiting: Array<[IncomingMessage, Duplex, Buffer]> | null = []

  constructor() {
    // Every handshake becomes an 'upgrade' event, whatever listeners exist at that moment.
    super({ shouldUpgradeCallback: () => true })
    // An idle keep-alive connection is closed by the client (or a proxy in front), not by us: had
    // the server closed it at Node's default 5 s, a client reusing it at that instant has its
    // request cut ("socket hang up"; seen under load). Clients close theirs sooner (fetch after
    // 4 s, browsers and proxies within a minute); 65 s is longer than all of those.
    this.keepAliveTimeout = 65_000
    // Node hangs up on a handshake while no 'upgrade' listener exists (the platform's server used
    // to register one). This one is never called: `emit` below hands every handshake to the route.
    this.on("upgrade", () => {})
  }

  routeUpgrades(route: UpgradeRoute | null): void {
    this.#route = route
    const waiting = this.#waiting ?? []
    this.#waiting = null
    for (const [request, socket, head] of waiting) {
      if (route === null) refuse(socket)
      else route(request, socket, head)
    }
  }

  override emit(event: string | symbol, ...args: Array<any>): boolean {
    // `as string`: Node takes symbols too; the cast only picks an overload of the typings.
    if (event !== "upgrade") return super.emit(event as string, ...args)
    const [request, socket, head] = args as [IncomingMessage, Duplex, Buffer]
    if (this.#route !== null) this.#route(request, socket, head)
    else if (this.#waiting !== null) this.#waiting.push([request, socket, head])
    else refuse(socket)
    return true
  }
}

export class NodeServer extends Context.Tag("host/NodeServer")<NodeServer, UpgradeRoutingServer>() {
  static readonly layer = Layer.sync(NodeServer, () => new UpgradeRoutingServer())
}

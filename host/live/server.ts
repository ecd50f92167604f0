/**
 * The node's http.Server, made here so that WebSocket handshakes never reach the HTTP
 * platform. The platform registers an 'upgrade' listener of its own; had it and the live
 * channel both answered one handshake, the platform's 404 would land on the upgraded socket
 * and the client would read garbage ("RSV1 must be clear"). So every 'upgrade' event goes to
 * the one route set here and to no listener; while none is set, a handshake is refused.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import { Server, type IncomingMessage } from "node:http"
import type { Duplex } from "node:stream"

export type UpgradeRoute = (request: IncomingMessage, socket: Duplex, head: Buffer) => void

export class UpgradeRoutingServer extends Server {
  #route: UpgradeRoute | null = null

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
  }

  override emit(event: string | symbol, ...args: Array<any>): boolean {
    // `as string`: Node takes symbols too; the cast only picks an overload of the typings.
    if (event !== "upgrade") return super.emit(event as string, ...args)
    const [request, socket, head] = args as [IncomingMessage, Duplex, Buffer]
    if (this.#route === null) socket.end("HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
    else this.#route(request, socket, head)
    return true
  }
}

export class NodeServer extends Context.Tag("host/NodeServer")<NodeServer, UpgradeRoutingServer>() {
  static readonly layer = Layer.sync(NodeServer, () => new UpgradeRoutingServer())
}

/**
 * Test-only preload (`node --import ./test/support/egress-hook.ts ...`): appends the destination
 * of every outbound socket the process opens, one `host:port` (or `unix:<path>`) per line, to the
 * file named by EGRESS_LOG. Every client socket goes through net.Socket.prototype.connect:
 * net.connect, tls.connect (a TLSSocket is a Socket), http/https agents, and fetch() (undici
 * dials with net.connect / tls.connect), so patching that one method sees them all. Written
 * synchronously so a killed node loses no line. Without EGRESS_LOG it does nothing.
 */
import { appendFileSync } from "node:fs"
import { Socket } from "node:net"

const log = process.env.EGRESS_LOG

type Target = { readonly host?: unknown; readonly port?: unknown; readonly path?: unknown }

/** What connect() was asked for: net.connect hands it its normalised [options, callback] array. */
const destination = (args: ReadonlyArray<unknown>): string => {
  const [first, second] = args
  const options = (Array.isArray(first) ? first[0] : first) as Target | number | string | undefined
  if (typeof options === "object" && options !== null) {
    if (typeof options.path === "string") return `unix:${options.path}`
    return `${typeof options.host === "string" ? options.host : "localhost"}:${String(options.port)}`
  }
  if (typeof options === "string" && !/^\d+$/.test(options)) return `unix:${options}`
  return `${typeof second === "string" ? second : "localhost"}:${String(options)}`
}

if (log !== undefined && log !== "") {
  const connect = Socket.prototype.connect
  Socket.prototype.connect = function (this: Socket, ...args: Array<unknown>) {
    appendFileSync(log, `${destination(args)}\n`)
    return (connect as (...rest: Array<unknown>) => Socket).apply(this, args)
  } as typeof Socket.prototype.connect
}

/**
 * The node's outbound HTTP, under one policy: http and https only, at most five redirects
 * (followed by hand, each hop checked again), a byte cap on the decompressed body and one
 * deadline for the whole exchange. Unless allowed, an address on the loopback, private, link-local or otherwise
 * non-public ranges
 * is refused, checked on the address actually connected to (a name that resolves to 127.0.0.1 is
 * as refused as 127.0.0.1 itself), so an agent cannot reach the services behind the node.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http"
import { Agent as HttpsAgent, request as httpsRequest } from "node:https"
import { BlockList, isIP } from "node:net"
import { Readable } from "node:stream"
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib"
import type { OutboundHttpRequest, OutboundRequest, OutboundResponse } from "../extensions/network.ts"

const maxRedirects = 5

const nonPublic = new BlockList()
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4]
] as const)
  nonPublic.addSubnet(network, prefix, "ipv4")
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8]
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv6")
}

/** Says in plain words why a request did not happen or did not finish. */
export class OutboundError extends Error {
  override readonly name = "OutboundError"
}

export const isNonPublic = (address: string) => {
  const family = isIP(address)
  return family !== 0 && nonPublic.check(address, family === 4 ? "ipv4" : "ipv6")
}

const refusedAddress = (host: string, address: string) =>
  new OutboundError(`${host} is on a private or local address (${address}); this node does not fetch from those.`)

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | Array<LookupAddress>,
  family?: number
) => void

/** dns.lookup that refuses the answers the policy refuses: net.connect asks it for every connection. */
const guardedLookup =
  (refuses: (address: string) => boolean) => (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) return callback(error, [])
      const refused = addresses.find((entry) => refuses(entry.address))
      if (refused !== undefined) return callback(refusedAddress(hostname, refused.address), [])
      if (options.all === true) return callback(null, addresses)
      const first = addresses[0]
      return first === undefined
        ? callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), [])
        : callback(null, first.address, first.family)
    })
  }

const words = (error: unknown, url: URL): OutboundError => {
  if (error instanceof OutboundError) return error
  switch ((error as NodeJS.ErrnoException | undefined)?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new OutboundError(`${url.hostname} could not be found.`)
    case "ECONNREFUSED":
      return new OutboundError(`${url.host} refused the connection.`)
    case "ECONNRESET":
      return new OutboundError(`${url.host} closed the connection.`)
    default:
      return new OutboundError(
        `The request to ${url.host} failed: ${error instanceof Error ? error.message : String(error)}.`
      )
  }
}

const decoded = (response: IncomingMessage): Readable => {
  switch ((response.headers["content-encoding"] ?? "").trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return response.pipe(createGunzip())
    case "deflate":
      return response.pipe(createInflate())
    case "br":
      return response.pipe(createBrotliDecompress())
    default:
      return response
  }
}

const readCapped = async (body: Readable, maxBytes: number) => {
  const chunks: Array<Buffer> = []
  let length = 0
  let truncated = false
  for await (const chunk of body as AsyncIterable<Buffer>) {
    const room = maxBytes - length
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk)
    length += Math.min(chunk.length, room)
    if (chunk.length > room) {
      truncated = true
      break
    }
  }
  body.destroy()
  return { body: new Uint8Array(Buffer.concat(chunks)), truncated }
}

interface Hop {
  readonly url: URL
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | undefined
}

/**
 * One policy's address check and its own kept-alive connections. The connections are the policy's alone: a pooled
 * socket is reused without a lookup, so a guarded request handed a connection that a policy allowing private
 * addresses opened to the same host and port (Node's shared global agent did that) would reach the private address
 * unchecked.
 */
interface Policy {
  readonly refuses: ((address: string) => boolean) | null
  readonly http: HttpAgent
  readonly https: HttpsAgent
}

const policyOf = (options: OutboundOptions): Policy => ({
  refuses: options.allowPrivate ? null : (options.refuses ?? isNonPublic),
  http: new HttpAgent({ keepAlive: true }),
  https: new HttpsAgent({ keepAlive: true })
})

const exchange = (hop: Hop, signal: AbortSignal, policy: Policy) =>
  new Promise<IncomingMessage>((resolve, reject) => {
    const { refuses } = policy
    const host = hop.url.hostname.replace(/^\[|\]$/g, "")
    // A literal address is connected to without a lookup, so it is checked here.
    if (refuses !== null && isIP(host) !== 0 && refuses(host)) return reject(refusedAddress(hop.url.hostname, host))
    const secure = hop.url.protocol === "https:"
    const send = secure ? httpsRequest : httpRequest
    const lookup = refuses === null ? {} : { lookup: guardedLookup(refuses) }
    const agent = secure ? policy.https : policy.http
    const request = send(hop.url, { method: hop.method, headers: hop.headers, signal, agent, ...lookup }, resolve)
    request.on("error", reject)
    request.end(hop.body)
  })

/** Headers that carry the caller's credentials: not handed to another origin on a redirect. */
const credentialHeaders = new Set(["authorization", "cookie", "proxy-authorization"])

/** The next hop of a redirect, as browsers take it (the fetch standard's rules). */
const redirected = (hop: Hop, status: number, location: string): Hop => {
  const url = new URL(location, hop.url)
  const asGet =
    (status === 303 && hop.method !== "HEAD") || ((status === 301 || status === 302) && hop.method === "POST")
  const sameOrigin = url.origin === hop.url.origin
  const headers = Object.fromEntries(
    Object.entries(hop.headers).filter(
      ([name]) =>
        (sameOrigin || !credentialHeaders.has(name.toLowerCase())) &&
        !(asGet && name.toLowerCase().startsWith("content-"))
    )
  )
  return { url, method: asGet ? "GET" : hop.method, headers, body: asGet ? undefined : hop.body }
}

/** A request the caller may stop through its signal (the network adapter's Effect passes its interruption's). */
export type Stoppable<R> = R & { readonly signal?: AbortSignal }

export interface OutboundOptions {
  /** Let requests reach loopback, private and link-local addresses (an owner-configured service). */
  readonly allowPrivate: boolean
  readonly userAgent: string
  /**
   * Which addresses are refused when private ones are not allowed; default the non-public ranges.
   * Tests narrow it so a loopback address can stand in for the public internet.
   */
  readonly refuses?: (address: string) => boolean
}

/** Any method, a body, the policy on every hop. */
export const makeOutbound = (options: OutboundOptions) => {
  const policy = policyOf(options)
  return async (request: Stoppable<OutboundHttpRequest>): Promise<OutboundResponse> => {
    let url: URL
    try {
      url = new URL(request.url)
    } catch {
      throw new OutboundError(`"${request.url}" is not a URL.`)
    }
    const redirectCap = Math.max(0, Math.min(request.maxRedirects ?? maxRedirects, maxRedirects))
    const deadline = AbortSignal.timeout(request.timeoutMs)
    const signal = request.signal === undefined ? deadline : AbortSignal.any([request.signal, deadline])
    const headers = { "user-agent": options.userAgent, "accept-encoding": "gzip, deflate, br", ...request.headers }
    let hop: Hop = { url, method: request.method, headers, body: request.body }
    try {
      for (let redirects = 0; ; redirects++) {
        url = hop.url
        if (url.protocol !== "http:" && url.protocol !== "https:") {
          throw new OutboundError(`Only http and https addresses are fetched, not ${url.protocol.replace(/:$/, "")}.`)
        }
        const response = await exchange(hop, signal, policy)
        const location = response.headers.location
        const status = response.statusCode ?? 0
        if ([301, 302, 303, 307, 308].includes(status) && location !== undefined && redirectCap > 0) {
          response.resume()
          if (redirects === redirectCap)
            throw new OutboundError(`${request.url} redirected more than ${redirectCap} times.`)
          hop = redirected(hop, status, location)
          continue
        }
        const { body, truncated } = await readCapped(decoded(response), request.maxBytes).finally(() =>
          response.destroy()
        )
        const responseHeaders = Object.fromEntries(
          Object.entries(response.headers).map(([name, value]) => [
            name,
            Array.isArray(value) ? value.join(", ") : (value ?? "")
          ])
        )
        return { url: url.href, status, headers: responseHeaders, body, truncated }
      }
    } catch (error) {
      if (deadline.aborted)
        throw new OutboundError(`No full answer from ${url.host} within ${request.timeoutMs / 1000} seconds.`)
      if (request.signal?.aborted === true) throw new OutboundError(`The request to ${url.host} was stopped.`)
      throw words(error, url)
    }
  }
}

export const makeOutboundGet = (options: OutboundOptions) => {
  const outbound = makeOutbound(options)
  return (request: Stoppable<OutboundRequest>): Promise<OutboundResponse> => outbound({ ...request, method: "GET" })
}

/**
 * A `fetch` under the same policy, for a client that reads its answer as a stream (the MCP SDK's Streamable HTTP
 * transport, whose server-sent events never end): the address check of every request, the caller's signal, and no
 * redirect followed (a 3xx is answered as it came, so no hop escapes the check). No byte cap and no deadline of its
 * own: the caller bounds what it reads and when it stops.
 */
export const makeOutboundFetch = (options: OutboundOptions) => {
  const policy = policyOf(options)
  return async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input))
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new OutboundError(`Only http and https addresses are fetched, not ${url.protocol.replace(/:$/, "")}.`)
    }
    const headers = { "user-agent": options.userAgent, ...Object.fromEntries(new Headers(init.headers).entries()) }
    const body = typeof init.body === "string" ? new TextEncoder().encode(init.body) : undefined
    const signal = init.signal ?? new AbortController().signal
    try {
      const response = await exchange({ url, method: init.method ?? "GET", headers, body }, signal, policy)
      const answered = new Headers()
      for (const [name, value] of Object.entries(response.headers)) {
        for (const each of Array.isArray(value) ? value : value === undefined ? [] : [value])
          answered.append(name, each)
      }
      const status = response.statusCode ?? 502
      const empty = status === 204 || status === 304 || init.method === "HEAD"
      if (empty) response.resume()
      return new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
        status,
        headers: answered
      })
    } catch (error) {
      if (signal.aborted) throw error
      throw words(error, url)
    }
  }
}

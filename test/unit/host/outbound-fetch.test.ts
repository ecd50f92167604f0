/**
 * The streaming `fetch` under the node's address policy (kernel/http/outbound.ts `makeOutboundFetch`, what a remote
 * MCP server is reached through): an answer read as it arrives (an event stream that has not ended), a redirect
 * answered as it came and never followed, a non-public address refused before anything is sent unless allowed, and
 * the caller's headers and body sent as given.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeOutboundFetch, OutboundError } from "../../../kernel/http/outbound.ts"

const strict = makeOutboundFetch({ allowPrivate: false, userAgent: "test" })
const open = makeOutboundFetch({ allowPrivate: true, userAgent: "test" })

const seen: Array<{ method: string; url: string; authorization: string; body: string }> = []
let base = ""
const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
  let body = ""
  for await (const chunk of request) body += String(chunk)
  seen.push({
    method: request.method ?? "",
    url: request.url ?? "",
    authorization: request.headers.authorization ?? "",
    body
  })
  if (request.url === "/moved") return void response.writeHead(302, { location: "/elsewhere" }).end()
  if (request.url === "/events") {
    // One event, and the stream left open: the answer must be readable before it ends.
    response.writeHead(200, { "content-type": "text/event-stream" })
    response.write("data: first\n\n")
    return
  }
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echoed: body }))
})

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

describe("the node's streaming fetch", () => {
  it("never hands a guarded request a connection another policy opened to a private address", async () => {
    const local = base.replace("127.0.0.1", "localhost")
    // A policy that may reach private addresses leaves a kept-alive connection to localhost behind.
    expect(await (await open(`${local}/mcp`)).text()).toBe('{"echoed":""}')
    const before = seen.length
    // The guarded policy connects on its own, so the address is checked, and refused.
    await expect(strict(`${local}/mcp`)).rejects.toThrow(/private or local address/)
    expect(seen.length).toBe(before)
  })

  it("sends the caller's method, headers and body, and answers status, headers and body", async () => {
    const answer = await open(`${base}/mcp`, {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: '{"a":1}'
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get("content-type")).toBe("application/json")
    expect(await answer.json()).toEqual({ echoed: '{"a":1}' })
    expect(seen.at(-1)).toMatchObject({ method: "POST", url: "/mcp", authorization: "Bearer t" })
  })

  it("reads an event stream as it arrives, and stops it through the signal", async () => {
    const stop = new AbortController()
    const answer = await open(`${base}/events`, { signal: stop.signal })
    const reader = answer.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n")
    stop.abort()
    await expect(reader.read()).rejects.toThrow()
  })

  it("answers a redirect as it came, never following it", async () => {
    const before = seen.length
    const answer = await open(`${base}/moved`)
    expect(answer.status).toBe(302)
    expect(answer.headers.get("location")).toBe("/elsewhere")
    expect(seen.slice(before).map((request) => request.url)).toEqual(["/moved"])
  })

  it("refuses a loopback address unless private addresses are allowed, sending nothing", async () => {
    const before = seen.length
    const refused = strict(`${base}/mcp`, { method: "POST", body: "{}" })
    await expect(refused).rejects.toBeInstanceOf(OutboundError)
    await expect(refused).rejects.toThrow(/127\.0\.0\.1 is on a private or local address/)
    await expect(strict(`http://localhost:${new URL(base).port}/mcp`)).rejects.toThrow(/private or local address/)
    await expect(open("file:///etc/passwd")).rejects.toThrow(/Only http and https/)
    expect(seen.length).toBe(before)
  })
})

/**
 * http.request and http.json against real loopback servers the test opens: with WEB_ALLOW_PRIVATE
 * on they reach them; with it off they are refused; a redirect from an allowed address to a
 * refused one is refused at the hop (a narrowed policy lets 127.0.0.1 stand in for the public
 * internet, 127.0.0.2 for the private network behind it). Unapproved calls raise the decision
 * and send nothing.
 */
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeOutbound, makeOutboundGet } from "../../../kernel/http/outbound.ts"
import { refusedUnlessResolved } from "../../../kernel/extensions/capability-refused.ts"
import type { NetworkAdapter } from "../../../kernel/extensions/network.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { at } from "../../support/json.ts"

interface Seen {
  readonly method: string
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

const seen: Array<Seen> = []
const inner: Array<string> = []

const site = createServer(async (request, response) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const url = new URL(request.url ?? "/", "http://stand-in")
  seen.push({
    method: request.method ?? "",
    path: url.pathname,
    headers: request.headers,
    body: Buffer.concat(chunks).toString("utf8")
  })
  switch (url.pathname) {
    case "/echo":
      return response
        .writeHead(201, { "content-type": "text/plain", "x-answer": "yes" })
        .end(`${request.method} ${Buffer.concat(chunks).toString("utf8")}`)
    case "/bytes":
      return response
        .writeHead(200, { "content-type": "application/octet-stream" })
        .end(Buffer.from([0xff, 0xfe, 0x00, 0x01]))
    case "/big":
      return response.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(100_000))
    case "/api":
      return response
        .writeHead(200, { "content-type": "application/json; charset=utf-8" })
        .end(JSON.stringify({ got: JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") }))
    case "/api-missing":
      return response.writeHead(404, { "content-type": "application/json" }).end('{"error":"missing"}')
    case "/html":
      return response.writeHead(200, { "content-type": "text/html" }).end("<p>not json</p>")
    case "/broken-json":
      return response.writeHead(200, { "content-type": "application/json" }).end("{nope")
    case "/post-303":
      return response.writeHead(303, { location: "/echo" }).end()
    case "/keep-307":
      return response.writeHead(307, { location: "/echo" }).end()
    case "/away":
      return response.writeHead(302, { location: `${innerBase}/secret` }).end()
    case "/loop":
      return response.writeHead(302, { location: "/loop" }).end()
    case "/slow":
      return setTimeout(() => response.writeHead(200).end("late"), 5_000)
    default:
      return response.writeHead(404).end()
  }
})
/** The private network's stand-in, on another loopback address. */
const innerSite = createServer((request, response) => {
  inner.push(request.url ?? "")
  response.writeHead(200, { "content-type": "text/plain" }).end("the private service")
})

let base: string
let innerBase: string
let open: SkillHarness
let guarded: SkillHarness
let publicOnly: SkillHarness

const listen = (server: Server, host: string) =>
  new Promise<string>((resolve) =>
    server.listen(0, host, () => resolve(`http://${host}:${(server.address() as AddressInfo).port}`))
  )

/** The node's own outbound with 127.0.0.1 counted as public: the rest of the non-public ranges stay refused. */
const publicOnlyNetwork = (): NetworkAdapter => {
  const options = { allowPrivate: false, userAgent: "test", refuses: (address: string) => address !== "127.0.0.1" }
  const get = makeOutboundGet(options)
  const request = makeOutbound(options)
  return {
    get: (outbound) => refusedUnlessResolved((signal) => get({ ...outbound, signal })),
    request: (outbound) => refusedUnlessResolved((signal) => request({ ...outbound, signal })),
    search: null
  }
}

beforeAll(async () => {
  base = await listen(site, "127.0.0.1")
  innerBase = await listen(innerSite, "127.0.0.2")
  open = await startSkills({ settings: { webAllowPrivate: true } })
  guarded = await startSkills({ settings: { webAllowPrivate: false } })
  publicOnly = await startSkills({ network: false, adapters: { network: publicOnlyNetwork } })
})
afterAll(async () => {
  await Promise.all([open.close(), guarded.close(), publicOnly.close()])
  for (const server of [site, innerSite]) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

describe("http.request", () => {
  it("sends the method, headers and body, and answers status, headers and the body as text", async () => {
    const outcome = await open.invoke("http.request", {
      method: "PUT",
      url: `${base}/echo`,
      headers: { "content-type": "text/plain", "x-token": "t1" },
      body: "hello"
    })
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        url: `${base}/echo`,
        status: 201,
        body: "PUT hello",
        encoding: "utf8",
        bytes: 9,
        truncated: false,
        headers: { "x-answer": "yes" }
      }
    })
    expect(seen.at(-1)).toMatchObject({
      method: "PUT",
      path: "/echo",
      body: "hello",
      headers: { "x-token": "t1", "content-type": "text/plain" }
    })
  })

  it("answers a non-2xx as it is, bytes that are not UTF-8 as base64, and cuts at maxBytes", async () => {
    expect((await open.invoke("http.request", { url: `${base}/nothing` })).output).toMatchObject({
      status: 404,
      body: ""
    })
    expect((await open.invoke("http.request", { url: `${base}/bytes` })).output).toMatchObject({
      body: "//4AAQ==",
      encoding: "base64",
      bytes: 4
    })
    expect((await open.invoke("http.request", { url: `${base}/big`, maxBytes: 1000 })).output).toMatchObject({
      bytes: 1000,
      truncated: true
    })
  })

  it("follows a 303 after a POST as a GET without the body, and a 307 keeping both", async () => {
    expect(
      (await open.invoke("http.request", { method: "POST", url: `${base}/post-303`, body: "form" })).output
    ).toMatchObject({ url: `${base}/echo`, body: "GET " })
    expect(
      (await open.invoke("http.request", { method: "POST", url: `${base}/keep-307`, body: "form" })).output
    ).toMatchObject({ body: "POST form" })
    expect((await open.invoke("http.request", { url: `${base}/post-303`, maxRedirects: 0 })).output).toMatchObject({
      status: 303,
      headers: { location: "/echo" }
    })
  })

  it("gives up at timeoutMs and after five redirects", async () => {
    expect(await open.invoke("http.request", { url: `${base}/slow`, timeoutMs: 300 })).toMatchObject({
      ok: false,
      error: expect.stringContaining("within 0.3 seconds")
    })
    expect(await open.invoke("http.request", { url: `${base}/loop` })).toMatchObject({
      ok: false,
      error: expect.stringContaining("redirected more than 5 times")
    })
  })

  it("refuses bad input before sending anything: a body on GET, a header the node sets, other schemes, limits out of range", async () => {
    const before = seen.length
    for (const input of [
      { url: `${base}/echo`, body: "x" },
      { method: "POST", url: `${base}/echo`, headers: { host: "elsewhere" } },
      { method: "POST", url: `${base}/echo`, headers: { "x-a": "1\r\nx-b: 2" } },
      { method: "TRACE", url: `${base}/echo` },
      { url: `${base}/echo`, maxBytes: 6 * 1024 * 1024 },
      { url: `${base}/echo`, timeoutMs: 120_000 }
    ]) {
      expect(await open.invoke("http.request", input), JSON.stringify(input)).toMatchObject({ ok: false })
    }
    expect(await open.invoke("http.request", { url: "file:///etc/passwd" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only http and https")
    })
    expect(seen.length).toBe(before)
  })

  it("refuses loopback and private addresses unless WEB_ALLOW_PRIVATE is on", async () => {
    const before = seen.length
    const port = new URL(base).port
    for (const url of [
      `${base}/echo`,
      `http://localhost:${port}/echo`,
      "http://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data"
    ]) {
      expect(await guarded.invoke("http.request", { method: "POST", url, body: "x" }), url).toMatchObject({
        ok: false,
        error: expect.stringContaining("private or local address")
      })
    }
    expect(seen.length).toBe(before)
  })

  it("checks the policy again on a redirect: an allowed address sending it to a private one is refused there", async () => {
    const outcome = await publicOnly.invoke("http.request", { url: `${base}/away` })
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining("private or local address (127.0.0.2)") })
    expect(inner).toEqual([])
    // The same private service straight from the open node answers: the refusal was the policy's.
    expect((await open.invoke("http.request", { url: `${base}/away` })).output).toMatchObject({
      body: "the private service"
    })
    expect(inner).toEqual(["/secret"])
  })

  it("is world-acting: an unapproved call sends nothing and asks the owner, with the exact input", async () => {
    const before = seen.length
    const input = { method: "DELETE", url: `${base}/echo` }
    const outcome = await open.invoke("http.request", input, { approved: false })
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringContaining("waits for the owner's approval"),
      approval: { status: "waiting" }
    })
    expect(open.asked.at(-1)).toMatchObject({
      skill: "http.request",
      input,
      reason: expect.stringContaining("change things")
    })
    expect(seen.length).toBe(before)
  })
})

describe("http.json", () => {
  it("sends a JSON body as application/json and answers the parsed JSON", async () => {
    const outcome = await open.invoke("http.json", { method: "POST", url: `${base}/api`, body: { n: 1, tags: ["a"] } })
    expect(outcome).toMatchObject({ ok: true, output: { status: 200, json: { got: { n: 1, tags: ["a"] } } } })
    expect(seen.at(-1)?.headers).toMatchObject({ "content-type": "application/json", accept: "application/json" })
  })

  it("refuses a non-2xx, a body that is not JSON and a cut answer, saying which", async () => {
    expect(await open.invoke("http.json", { url: `${base}/api-missing` })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/answered 404, not a 2xx: \{"error":"missing"\}/)
    })
    expect(await open.invoke("http.json", { url: `${base}/html` })).toMatchObject({
      ok: false,
      error: expect.stringContaining("answered text/html, not JSON")
    })
    expect(await open.invoke("http.json", { url: `${base}/broken-json` })).toMatchObject({
      ok: false,
      error: expect.stringContaining("is not JSON: {nope")
    })
    expect(
      await open.invoke("http.json", { url: `${base}/api`, method: "POST", body: "x".repeat(50), maxBytes: 5 })
    ).toMatchObject({
      ok: false,
      error: expect.stringContaining("longer than maxBytes")
    })
  })

  it("is world-acting and refused on a private address with WEB_ALLOW_PRIVATE off", async () => {
    expect(await open.invoke("http.json", { url: `${base}/api` }, { approved: false })).toMatchObject({
      ok: false,
      approval: { status: "waiting" }
    })
    expect(await guarded.invoke("http.json", { url: `${base}/api` })).toMatchObject({
      ok: false,
      error: expect.stringContaining("private or local address")
    })
  })
})

describe("the listing", () => {
  it("publishes both with their schemas, world-acting, in the http family", async () => {
    const skills = await open.list()
    const request = skills.find((skill) => skill.name === "http.request")
    const json = skills.find((skill) => skill.name === "http.json")
    expect(request).toMatchObject({
      family: "http",
      pluginId: "@svc/http",
      worldActing: true,
      inputSchema: { required: ["url"] }
    })
    expect(at(request?.inputSchema, "properties", "method")).toMatchObject({
      enum: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
      default: "GET"
    })
    expect(request?.outputSchema).toMatchObject({
      required: expect.arrayContaining(["status", "headers", "body", "encoding"])
    })
    expect(json).toMatchObject({ worldActing: true, outputSchema: { required: expect.arrayContaining(["json"]) } })
  })
})

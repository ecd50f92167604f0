import * as Option from "effect/Option"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { at } from "../../support/json.ts"

const page = `<!doctype html><html><head><title>Tides &amp; Moons</title><style>body { color: red }</style>
<script>window.secret = "do not show"</script></head><body><h1>Tides</h1><p>The moon pulls the <a href="https://example.org/sea">sea</a>.</p>
<img src="moon.png" alt="moon"><ul><li>High tide</li><li>Low tide</li></ul></body></html>`

/** A loopback web site with the answers web.fetch must cope with, and a SearXNG stand-in. */
const site = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://stand-in")
  switch (url.pathname) {
    case "/page":
      return response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page)
    case "/gzip":
      return response.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" }).end(gzipSync(page))
    case "/latin1":
      return response
        .writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" })
        .end(Buffer.from([0x63, 0x61, 0x66, 0xe9]))
    case "/big":
      return response.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(100_000))
    case "/json":
      return response.writeHead(404, { "content-type": "application/json" }).end('{"error":"missing"}')
    case "/image":
      return response.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(64))
    case "/hop":
      return response.writeHead(302, { location: "/page" }).end()
    case "/loop":
      return response.writeHead(302, { location: "/loop" }).end()
    case "/to-file":
      return response.writeHead(302, { location: "file:///etc/passwd" }).end()
    case "/slow":
      return setTimeout(() => response.writeHead(200, { "content-type": "text/plain" }).end("late"), 5_000)
    case "/searxng/search": {
      searches.push(Object.fromEntries(url.searchParams))
      if (url.searchParams.get("format") !== "json") return response.writeHead(403).end("Forbidden")
      return response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          query: url.searchParams.get("q"),
          number_of_results: 3,
          results: [1, 2, 3].map((n) => ({
            url: `https://example.org/${n}`,
            title: `Result ${n}`,
            content: `About ${n}`,
            engine: "stand-in",
            score: 1
          })),
          answers: [],
          suggestions: [],
          unresponsive_engines: []
        })
      )
    }
    case "/no-json/search":
      return response.writeHead(403, { "content-type": "text/html" }).end("Forbidden")
    default:
      return response.writeHead(404).end()
  }
})
const searches: Array<Record<string, string>> = []

let base: string
let skills: SkillHarness
let guarded: SkillHarness

beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  skills = await startSkills({ settings: { webAllowPrivate: true, searchUrl: Option.some(`${base}/searxng`) } })
  guarded = await startSkills({ settings: { webAllowPrivate: false, searchUrl: Option.none() } })
})
afterAll(async () => {
  await Promise.all([skills.close(), guarded.close()])
  site.closeAllConnections()
  await new Promise((resolve) => site.close(resolve))
})

const fetchPage = (harness: SkillHarness, input: Record<string, unknown>) => harness.invoke("web.fetch", input)

describe("web.fetch", () => {
  it("answers an HTML page's title and readable text: no script, style or images; links keep their address", async () => {
    const { output } = await fetchPage(skills, { url: `${base}/page` })
    expect(output).toMatchObject({
      url: `${base}/page`,
      status: 200,
      contentType: "text/html; charset=utf-8",
      title: "Tides & Moons",
      truncated: false
    })
    expect(at(output, "bytes")).toBe(Buffer.byteLength(page))
    expect(at(output, "text")).toBe(
      "Tides\n\nThe moon pulls the sea [https://example.org/sea].\n\n * High tide\n * Low tide"
    )
    expect(at(output, "text")).not.toContain("secret")
  })

  it("follows redirects, decompresses, honours the charset, and returns other text as it is with its status", async () => {
    expect((await fetchPage(skills, { url: `${base}/hop` })).output).toMatchObject({
      url: `${base}/page`,
      title: "Tides & Moons"
    })
    expect(at((await fetchPage(skills, { url: `${base}/gzip` })).output, "text")).toContain("The moon pulls the sea")
    expect(at((await fetchPage(skills, { url: `${base}/latin1` })).output, "text")).toBe("café")
    expect((await fetchPage(skills, { url: `${base}/json` })).output).toMatchObject({
      status: 404,
      title: "",
      text: '{"error":"missing"}'
    })
  })

  it("cuts the body at maxBytes and says so", async () => {
    const { output } = await fetchPage(skills, { url: `${base}/big`, maxBytes: 1000 })
    expect(output).toMatchObject({ truncated: true, bytes: 1000 })
    expect(at(output, "text")).toBe("x".repeat(1000))
  })

  it("gives up at timeoutMs", async () => {
    const started = Date.now()
    const outcome = await fetchPage(skills, { url: `${base}/slow`, timeoutMs: 300 })
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining("within 0.3 seconds") })
    expect(Date.now() - started).toBeLessThan(3_000)
  })

  it("refuses binary answers, other schemes, endless redirects and limits out of range", async () => {
    expect(await fetchPage(skills, { url: `${base}/image` })).toMatchObject({
      ok: false,
      error: expect.stringContaining("reads text")
    })
    expect(await fetchPage(skills, { url: "file:///etc/passwd" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only http and https")
    })
    expect(await fetchPage(skills, { url: `${base}/to-file` })).toMatchObject({
      ok: false,
      error: expect.stringContaining("Only http and https")
    })
    expect(await fetchPage(skills, { url: `${base}/loop` })).toMatchObject({
      ok: false,
      error: expect.stringContaining("redirected more than 5 times")
    })
    expect(await fetchPage(skills, { url: "not a url" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("is not a URL")
    })
    expect(await fetchPage(skills, { url: `${base}/page`, maxBytes: 6 * 1024 * 1024 })).toMatchObject({ ok: false })
    expect(await fetchPage(skills, { url: `${base}/page`, timeoutMs: 120_000 })).toMatchObject({ ok: false })
  })

  it("refuses loopback and private addresses unless the owner allows them, by literal and by name", async () => {
    const port = new URL(base).port
    for (const url of [
      `${base}/page`,
      `http://localhost:${port}/page`,
      `http://[::1]:${port}/page`,
      "http://10.0.0.1/",
      "http://169.254.169.254/latest/meta-data"
    ]) {
      const outcome = await fetchPage(guarded, { url })
      expect(outcome, url).toMatchObject({ ok: false, error: expect.stringContaining("private or local address") })
    }
  })
})

describe("web.search", () => {
  it("asks the configured SearXNG for JSON and answers titles, addresses and snippets", async () => {
    const { output } = await skills.invoke("web.search", { query: "tides and moons", maxResults: 2 })
    expect(output).toEqual({
      results: [
        { title: "Result 1", url: "https://example.org/1", snippet: "About 1" },
        { title: "Result 2", url: "https://example.org/2", snippet: "About 2" }
      ]
    })
    expect(searches.at(-1)).toEqual({ q: "tides and moons", format: "json" })
  })

  it("says plainly when SearXNG refuses JSON", async () => {
    const refusing = await startSkills({ settings: { searchUrl: Option.some(`${base}/no-json/`) } })
    try {
      expect(await refusing.invoke("web.search", { query: "x" })).toMatchObject({
        ok: false,
        error: expect.stringContaining("HTTP 403")
      })
    } finally {
      await refusing.close()
    }
  })

  it("answers no results and a note when no provider is configured or the network is not wired", async () => {
    expect(await guarded.invoke("web.search", { query: "x" })).toMatchObject({
      ok: true,
      output: { results: [], note: "no search provider is configured: set SEARCH_URL." }
    })
    const unwired = await startSkills({ network: false })
    try {
      expect(await unwired.invoke("web.search", { query: "x" })).toMatchObject({
        ok: true,
        output: { results: [], note: "network is not wired on this node yet." }
      })
      expect(await unwired.invoke("web.fetch", { url: "https://example.org" })).toMatchObject({
        ok: false,
        error: "network is not wired on this node yet."
      })
    } finally {
      await unwired.close()
    }
  })
})

/**
 * The web app as a browser receives it, over real HTTP from a node serving a build made for
 * this test: the HTML shell names content-hashed files; those files may be kept a year; the
 * brotli or gzip copy is the one Accept-Encoding asks for and decompresses to the same bytes;
 * the shell answers 304 to its own ETag; a file the build does not have is a 404.
 * Raw node:http, not fetch: fetch would decompress the body and hide what came over the wire.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { request, type IncomingHttpHeaders } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { buildUi, type UiBuild } from "../../ui/build.ts"
import { startNode, type TestNode } from "../support/node.ts"

interface RawAnswer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const outgoing = request(url, { headers, agent: false }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () =>
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) })
      )
    })
    outgoing.on("error", reject)
    outgoing.end()
  })

describe("the web app's files", () => {
  const uiDir = mkdtempSync(join(tmpdir(), "ui-build-"))
  let build: UiBuild
  let node: TestNode
  /** The shell's script as built, and the bytes a client that accepts no encoding gets. */
  let entry: { readonly path: string; readonly bytes: Buffer }

  beforeAll(async () => {
    build = await buildUi({ outDir: uiDir })
    node = await startNode({}, { uiDir })
    entry = { path: `/${build.stamp.entry}`, bytes: readFileSync(join(uiDir, build.stamp.entry)) }
  })

  afterAll(async () => {
    await node?.close()
    rmSync(uiDir, { recursive: true, force: true })
  })

  test("the shell names content-hashed files and is revalidated, never kept blindly", async () => {
    const shell = await get(`${node.url}/`)
    expect(shell.status).toBe(200)
    expect(shell.headers["content-type"]).toMatch(/^text\/html/)
    expect(shell.headers["cache-control"]).toBe("no-cache")
    expect(shell.headers["content-security-policy"]).toContain("script-src 'self'")
    expect(shell.headers.etag).toMatch(/^"[\w-]+"$/)
    const html = shell.body.toString("utf8")
    expect(build.stamp.entry).toMatch(/^assets\/app-[A-Z0-9]{8}\.js$/)
    expect(build.stamp.stylesheet).toMatch(/^assets\/app-[A-Z0-9]{8}\.css$/)
    expect(html).toContain(`<script type="module" src="/${build.stamp.entry}"></script>`)
    expect(html).toContain(`<link rel="stylesheet" href="/${build.stamp.stylesheet}">`)
    // The unhashed names of older builds are gone.
    expect((await get(`${node.url}/assets/app.js`)).status).toBe(404)
  })

  test("the shell answers 304 to its ETag, on any path of the app, and 200 to another", async () => {
    const etag = (await get(`${node.url}/`)).headers.etag!
    for (const path of ["/", "/studio", "/login?next=%2F"]) {
      const again = await get(`${node.url}${path}`, { "if-none-match": etag })
      expect(again.status).toBe(304)
      expect(again.body.byteLength).toBe(0)
      expect(again.headers.etag).toBe(etag)
      expect(again.headers["cache-control"]).toBe("no-cache")
    }
    expect((await get(`${node.url}/`, { "if-none-match": `W/${etag}, "other"` })).status).toBe(304)
    const stale = await get(`${node.url}/`, { "if-none-match": '"an-older-shell"' })
    expect(stale.status).toBe(200)
    expect(stale.body.toString("utf8")).toContain(build.stamp.entry)
  })

  test("hashed files may be kept a year; brotli or gzip as Accept-Encoding prefers, the same bytes once decompressed", async () => {
    const plain = await get(`${node.url}${entry.path}`)
    expect(plain.status).toBe(200)
    expect(plain.headers["content-type"]).toBe("text/javascript; charset=utf-8")
    expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.headers.vary).toBe("Accept-Encoding")
    expect(plain.body.equals(entry.bytes)).toBe(true)

    const browserLike = await get(`${node.url}${entry.path}`, { "accept-encoding": "gzip, deflate, br, zstd" })
    expect(browserLike.headers["content-encoding"]).toBe("br")
    expect(browserLike.headers.vary).toBe("Accept-Encoding")
    expect(browserLike.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect(browserLike.body.byteLength).toBeLessThan(entry.bytes.byteLength)
    expect(brotliDecompressSync(browserLike.body).equals(entry.bytes)).toBe(true)

    for (const acceptEncoding of ["gzip", "br;q=0, gzip", "gzip;q=1, br;q=0.5"]) {
      const gzipped = await get(`${node.url}${entry.path}`, { "accept-encoding": acceptEncoding })
      expect(gzipped.headers["content-encoding"]).toBe("gzip")
      expect(gunzipSync(gzipped.body).equals(entry.bytes)).toBe(true)
    }
    const identityOnly = await get(`${node.url}${entry.path}`, { "accept-encoding": "identity" })
    expect(identityOnly.headers["content-encoding"]).toBeUndefined()
    expect(identityOnly.body.equals(entry.bytes)).toBe(true)
  })

  test("every place's chunk and the stylesheet are served the same way", async () => {
    expect(Object.keys(build.stamp.places).sort()).toEqual([
      "admin",
      "beings",
      "desktop",
      "login",
      "market",
      "messages",
      "moderation",
      "module",
      "muse",
      "not-found",
      "project",
      "queue",
      "register",
      "reset",
      "settings",
      "spaces",
      "studio",
      "twin",
      "verify",
      "waitlist",
      "world"
    ])
    for (const file of [build.stamp.stylesheet, ...Object.values(build.stamp.places)]) {
      const answer = await get(`${node.url}/${file}`, { "accept-encoding": "br" })
      expect(answer.status, file).toBe(200)
      expect(answer.headers["cache-control"], file).toBe("public, max-age=31536000, immutable")
      const bytes = readFileSync(join(uiDir, file))
      const received = answer.headers["content-encoding"] === "br" ? brotliDecompressSync(answer.body) : answer.body
      expect(received.equals(bytes), file).toBe(true)
    }
  })

  test("a file under /assets/ that the build does not have is a 404, not the shell", async () => {
    for (const path of ["/assets/app-NOTBUILT.js", `${entry.path}.br`, "/assets/", "/assets/chunks/x.js"]) {
      const answer = await get(`${node.url}${path}`)
      expect(answer.status, path).toBe(404)
      expect(JSON.parse(answer.body.toString("utf8")).error, path).toBe("not_found")
    }
  })
})

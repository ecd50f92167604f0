/**
 * Files through real HTTP, downloading with a static server's semantics: ranges, conditional
 * requests, HEAD, large files streamed, and a project's outputs served the same way.
 */
import { randomBytes } from "node:crypto"
import { mkdirSync, readdirSync, readlinkSync, writeFileSync } from "node:fs"
import { get as httpGet } from "node:http"
import { join } from "node:path"
import { beforeAll, describe, expect, it, vi } from "vitest"
import { encodeFileId } from "../../extensions/files/contract/file-ids.ts"
import { apiError, type Client } from "../support/node.ts"
import { filesNode, projectId, uploadsOf } from "./files-support.ts"

const context = filesNode()

const download = (client: Client, id: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
  client.raw(method, `/api/files/download?id=${encodeURIComponent(id)}`, undefined, headers)

/** The file's name as every answer about it carries it, a refusal or a 304 too. */
const attachment = `attachment; filename="r?sum? 2024.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%202024.txt`

describe("download", () => {
  const content = "0123456789abcdefghij"
  let id: string
  beforeAll(() => {
    mkdirSync(join(uploadsOf(context, context.member.being.id), "docs"), { recursive: true })
    writeFileSync(join(uploadsOf(context, context.member.being.id), "docs", "résumé 2024.txt"), content)
    id = encodeFileId({ scope: "upload", projectId: null, path: "docs/résumé 2024.txt" })
  })

  it("sends the whole file as an attachment with Accept-Ranges, ETag and Last-Modified", async () => {
    const answer = await download(context.member.client, id)
    expect(answer.status).toBe(200)
    expect(answer.text).toBe(content)
    expect(answer.headers["accept-ranges"]).toBe("bytes")
    expect(answer.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    expect(new Date(answer.headers["last-modified"]!).getTime()).not.toBeNaN()
    expect(answer.headers["content-length"]).toBe("20")
    expect(answer.headers["content-disposition"]).toBe(attachment)
  })

  it("answers one range with 206 and Content-Range; several apart with the whole file; overlapping ones combined", async () => {
    const one = await download(context.member.client, id, { range: "bytes=2-5" })
    expect([one.status, one.text, one.headers["content-range"], one.headers["content-length"]]).toEqual([
      206,
      "2345",
      "bytes 2-5/20",
      "4"
    ])
    const suffix = await download(context.member.client, id, { range: "bytes=-3" })
    expect([suffix.status, suffix.text, suffix.headers["content-range"]]).toEqual([206, "hij", "bytes 17-19/20"])
    const clipped = await download(context.member.client, id, { range: "bytes=15-99" })
    expect([clipped.status, clipped.text, clipped.headers["content-range"]]).toEqual([206, "fghij", "bytes 15-19/20"])
    const several = await download(context.member.client, id, { range: "bytes=0-1,5-6" })
    expect([several.status, several.text]).toEqual([200, content])
    const overlapping = await download(context.member.client, id, { range: "bytes=0-3,2-5" })
    expect([overlapping.status, overlapping.text]).toEqual([206, "012345"])
  })

  it("answers a range outside the file with 416 and 'bytes */size', still with the validators", async () => {
    const answer = await download(context.member.client, id, { range: "bytes=20-30" })
    expect([answer.status, answer.headers["content-range"], apiError(answer).error]).toEqual([
      416,
      "bytes */20",
      "range_not_satisfiable"
    ])
    expect(answer.headers.etag).toBeDefined()
    expect(answer.headers["accept-ranges"]).toBe("bytes")
    // "Always Content-Disposition attachment", the refusal too.
    expect(answer.headers["content-disposition"]).toBe(attachment)
  })

  it("ignores an unparseable Range and a unit other than bytes", async () => {
    for (const range of ["bytes=abc", "bytes=5", "items=0-1", "bytes 0-1"]) {
      const answer = await download(context.member.client, id, { range })
      expect([range, answer.status, answer.text]).toEqual([range, 200, content])
    }
  })

  it("answers 304 on a matching If-None-Match or an unchanged If-Modified-Since", async () => {
    const first = await download(context.member.client, id)
    const { etag, "last-modified": modified } = first.headers
    for (const headers of [
      { "if-none-match": etag! },
      { "if-none-match": `W/${etag}, "other"` },
      { "if-modified-since": modified! }
    ]) {
      const answer = await download(context.member.client, id, headers)
      expect([
        answer.status,
        answer.text,
        answer.headers.etag,
        answer.headers["last-modified"],
        answer.headers["accept-ranges"],
        answer.headers["content-disposition"]
      ]).toEqual([304, "", etag, modified, "bytes", attachment])
    }
    expect((await download(context.member.client, id, { "if-none-match": '"other"' })).status).toBe(200)
    expect(
      (await download(context.member.client, id, { "if-modified-since": "Mon, 01 Jan 2001 00:00:00 GMT" })).status
    ).toBe(200)
  })

  it("honours If-Range only when it names this very version; If-Match failing is 412", async () => {
    const { etag, "last-modified": modified } = (await download(context.member.client, id)).headers
    expect((await download(context.member.client, id, { range: "bytes=0-1", "if-range": etag! })).status).toBe(206)
    expect((await download(context.member.client, id, { range: "bytes=0-1", "if-range": modified! })).status).toBe(206)
    for (const ifRange of ['"stale"', `W/${etag}`, "Mon, 01 Jan 2001 00:00:00 GMT"]) {
      const answer = await download(context.member.client, id, { range: "bytes=0-1", "if-range": ifRange })
      expect([ifRange, answer.status, answer.text]).toEqual([ifRange, 200, content])
    }
    const stale = await download(context.member.client, id, { "if-match": '"stale"' })
    expect([stale.status, stale.headers["content-disposition"]]).toEqual([412, attachment])
    expect((await download(context.member.client, id, { "if-match": etag! })).status).toBe(200)
  })

  it("sends a file larger than a read buffer byte for byte, whole and by a range across buffers; a client leaving mid-way frees the file", async () => {
    const bytes = randomBytes(1024 * 1024 + 777)
    const path = join(uploadsOf(context, context.member.being.id), "docs", "big.bin")
    writeFileSync(path, bytes)
    const bigId = encodeFileId({ scope: "upload", projectId: null, path: "docs/big.bin" })
    const url = `${context.node.url}/api/files/download?id=${encodeURIComponent(bigId)}`
    const headers = { cookie: context.member.client.cookieHeader() }
    const whole = await fetch(url, { headers })
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true)
    const part = await fetch(url, { headers: { ...headers, range: "bytes=262100-786500" } })
    expect(part.status).toBe(206)
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(262100, 786501))).toBe(true)

    // The file stays open only while it is being sent.
    const openOnIt = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === path
        } catch {
          return false
        }
      }).length
    await new Promise<void>((resolve, reject) => {
      const request = httpGet(url, { headers }, (response) =>
        response.once("data", () => {
          request.destroy()
          resolve()
        })
      )
      request.on("error", (error) => (request.destroyed ? undefined : reject(error)))
    })
    await vi.waitFor(() => expect(openOnIt()).toBe(0), { timeout: 5000 })
    expect((await download(context.member.client, id)).text).toBe(content)
  })

  it("answers HEAD with the same headers and no body", async () => {
    const answer = await download(context.member.client, id, { range: "bytes=0-1" }, "HEAD")
    expect([answer.status, answer.text, answer.headers["content-range"], answer.headers["content-length"]]).toEqual([
      206,
      "",
      "bytes 0-1/20",
      "2"
    ])
  })

  it("refuses without a session, with a bad id, for a folder, and for another being's file", async () => {
    const anonymous = await fetch(`${context.node.url}/api/files/download?id=${id}`)
    expect(anonymous.status).toBe(401)
    expect(apiError(await context.member.client.raw("GET", "/api/files/download")).error).toBe("invalid_request")
    const folder = encodeFileId({ scope: "upload", projectId: null, path: "docs" })
    expect(apiError(await download(context.member.client, folder)).error).toBe("not_a_file")
    expect((await download(context.owner.client, id)).status).toBe(404)
    expect(
      (await download(context.member.client, encodeFileId({ scope: "project", projectId, path: "out/report.md" })))
        .status
    ).toBe(404)
  })

  it("serves a project's output file the same way, inline and sandboxed", async () => {
    const path = `/api/files/project/${projectId}/out/report.md`
    const whole = await context.owner.client.raw("GET", path)
    expect([whole.status, whole.headers["content-disposition"], whole.headers["content-security-policy"]]).toEqual([
      200,
      "inline; filename=report.md",
      "sandbox"
    ])
    expect((await context.owner.client.raw("GET", path, undefined, { range: "bytes=0-1" })).text).toBe("# ")
    expect(
      (await context.owner.client.raw("GET", path, undefined, { "if-none-match": whole.headers.etag! })).status
    ).toBe(304)
    expect(apiError(await context.owner.client.raw("GET", `/api/files/project/${projectId}/out`)).error).toBe(
      "not_a_file"
    )
    expect((await context.member.client.raw("GET", path)).status).toBe(404)
  })
})

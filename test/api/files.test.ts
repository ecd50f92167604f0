/**
 * Files through real HTTP: listing, searching and reading one's own scopes, downloading with a
 * static server's semantics (ranges, conditional requests), and uploading multipart bodies.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs"
import { get as httpGet } from "node:http"
import { join } from "node:path"
import { beforeAll, describe, expect, it, vi } from "vitest"
import { ProjectStore } from "../../actors/project/store.ts"
import type { FileEntry } from "../../extensions/files/contract/records.ts"
import { encodeFileId } from "../../extensions/files/contract/file-ids.ts"
import { rawRequest } from "../support/raw-http.ts"
import { apiError, attempt, type Client, nodeWithOwner, registerMember, run, type Registered } from "../support/node.ts"

const UPLOAD_LIMIT = 64 * 1024
const context = nodeWithOwner((dataDir) => {
  const userFolder = join(dataDir, "owner-folder")
  mkdirSync(join(userFolder, "letters"), { recursive: true })
  writeFileSync(join(userFolder, "letters", "to-ada.txt"), "Dear Ada")
  return { filesRoot: Option.some(userFolder), maxUploadBytes: UPLOAD_LIMIT }
})
let member: Registered
const projectId = "proj_files_test"

const uploadsOf = (beingId: string) => join(context.node.dataDir, "uploads", beingId)

/** A multipart upload as a browser's form sends it. */
const upload = async (
  client: Client,
  files: ReadonlyArray<{ name: string; content: string | Uint8Array<ArrayBuffer> }>,
  fields: Record<string, string> = {},
  headers: Record<string, string> = {}
) => {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  for (const file of files) form.append("file", new Blob([file.content]), file.name)
  const response = await fetch(`${client.base}/api/files/upload`, {
    method: "POST",
    body: form,
    headers: { ...client.headers, cookie: client.cookieHeader(), ...headers }
  })
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown }
}

const download = (client: Client, id: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
  client.raw(method, `/api/files/download?id=${encodeURIComponent(id)}`, undefined, headers)

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
  await context.node.runtime.runPromise(
    Effect.flatMap(ProjectStore, (store) =>
      store.insertProject({
        id: projectId,
        ownerId: context.owner.being.id,
        generatorId: null,
        title: "Files",
        brief: "Files",
        inputs: {}
      })
    ).pipe(Effect.provide(ProjectStore.Default))
  )
  const workspace = join(context.node.dataDir, "projects", projectId, "workspace")
  mkdirSync(join(workspace, "out"), { recursive: true })
  writeFileSync(join(workspace, "out", "report.md"), "# Report\n")
})

describe("upload", () => {
  it("stores each file part in the caller's uploads, under the path field's folder, and answers FileEntry[]", async () => {
    const answer = await upload(
      context.owner.client,
      [
        { name: "notes.txt", content: "first notes" },
        { name: "photo.png", content: new Uint8Array([137, 80, 78, 71, 0, 1]) }
      ],
      { path: "trip/day1" }
    )
    expect(answer.status).toBe(200)
    const entries = answer.body as Array<FileEntry>
    expect(
      entries.map(({ path, name, ext, size, scope, isDir, projectId, beingId }) => ({
        path,
        name,
        ext,
        size,
        scope,
        isDir,
        projectId,
        beingId
      }))
    ).toEqual([
      {
        path: "trip/day1/notes.txt",
        name: "notes.txt",
        ext: "txt",
        size: 11,
        scope: "upload",
        isDir: false,
        projectId: null,
        beingId: context.owner.being.id
      },
      {
        path: "trip/day1/photo.png",
        name: "photo.png",
        ext: "png",
        size: 6,
        scope: "upload",
        isDir: false,
        projectId: null,
        beingId: context.owner.being.id
      }
    ])
    expect(readFileSync(join(uploadsOf(context.owner.being.id), "trip", "day1", "notes.txt"), "utf8")).toBe(
      "first notes"
    )
  })

  it("keeps both files when a name is taken: the new one becomes 'name (1).ext'", async () => {
    const [first, second] = await Promise.all([
      upload(member.client, [{ name: "same.txt", content: "one" }]),
      upload(member.client, [{ name: "same.txt", content: "two" }])
    ])
    const names = [...(first!.body as Array<FileEntry>), ...(second!.body as Array<FileEntry>)]
      .map((entry) => entry.name)
      .sort()
    expect(names).toEqual(["same (1).txt", "same.txt"])
    const contents = ["same.txt", "same (1).txt"]
      .map((name) => readFileSync(join(uploadsOf(member.being.id), name), "utf8"))
      .sort()
    expect(contents).toEqual(["one", "two"])
  })

  it("refuses bad input with a named code and leaves nothing on disk", async () => {
    const before = readdirSync(uploadsOf(member.being.id)).sort()
    const cases: Array<[Awaited<ReturnType<typeof upload>>, number, string]> = [
      [await upload(member.client, [], { path: "x" }), 400, "no_file"],
      [await upload(member.client, [{ name: "a.txt", content: "a" }], { path: "../escape" }), 400, "invalid_path"],
      [await upload(member.client, [{ name: "a.txt", content: "a" }], { path: "/etc" }), 400, "invalid_path"],
      [await upload(member.client, [{ name: "a.txt", content: "a" }], { path: "in\0side" }), 400, "invalid_path"],
      [await upload(member.client, [{ name: "..", content: "a" }]), 400, "invalid_filename"],
      [await upload(member.client, [{ name: ".hidden", content: "a" }]), 400, "invalid_filename"],
      [
        await upload(member.client, [{ name: "ok.txt", content: "a" }], {}, { origin: "https://evil.example" }),
        403,
        "forbidden_origin"
      ],
      [
        await upload(member.client, [{ name: "big.bin", content: new Uint8Array(UPLOAD_LIMIT + 1) }]),
        413,
        "payload_too_large"
      ]
    ]
    for (const [answer, status, code] of cases)
      expect([answer.status, (answer.body as { error: string }).error]).toEqual([status, code])
    expect(readdirSync(uploadsOf(member.being.id)).sort()).toEqual(before)
    expect(readdirSync(join(context.node.dataDir, "upload-staging"))).toEqual([])
  })

  it("counts a chunked body as it streams: 413 past the limit, the connection closed, nothing kept", async () => {
    const boundary = "----bound"
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
    const body = `${head + "x".repeat(UPLOAD_LIMIT * 2)}\r\n--${boundary}--\r\n`
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
    const answer = await rawRequest(
      context.node.url,
      `POST /api/files/upload HTTP/1.1\r\nCookie: ${member.client.cookieHeader()}\r\nX-Forwarded-For: 10.99.0.1\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked`,
      chunked
    )
    expect([answer.status, (answer.body as { error: string }).error, answer.headers.connection]).toEqual([
      413,
      "payload_too_large",
      "close"
    ])
    expect(existsSync(join(uploadsOf(member.being.id), "huge.bin"))).toBe(false)
    expect(readdirSync(join(context.node.dataDir, "upload-staging"))).toEqual([])
  })

  it("refuses a body that is not multipart (415) and a caller without a session (401)", async () => {
    const json = await member.client.raw("POST", "/api/files/upload", { files: [] })
    expect([json.status, apiError(json).error]).toEqual([415, "unsupported_media_type"])
    const form = new FormData()
    form.append("file", new Blob(["x"]), "x.txt")
    const anonymous = await fetch(`${context.node.url}/api/files/upload`, { method: "POST", body: form })
    expect(anonymous.status).toBe(401)
  })
})

describe("listing, search and read", () => {
  it("lists a folder of one's uploads: folders first, ids that name no disk path", async () => {
    const listed = await run(context.owner.client.api.files.list({ urlParams: { scope: "upload", path: "trip/day1" } }))
    expect(listed.map((entry) => entry.path)).toEqual(["trip/day1/notes.txt", "trip/day1/photo.png"])
    const root = await run(context.owner.client.api.files.list({ urlParams: { scope: "upload" } }))
    expect(root.map((entry) => [entry.name, entry.isDir])).toEqual([["trip", true]])
    for (const entry of [...listed, ...root]) expect(JSON.stringify(entry)).not.toContain(context.node.dataDir)
  })

  it("lists a project's workspace to its owner only; another being's project is missing", async () => {
    const listed = await run(
      context.owner.client.api.files.list({ urlParams: { scope: "project", projectId, path: "out" } })
    )
    expect(listed.map((entry) => [entry.path, entry.scope, entry.projectId])).toEqual([
      ["out/report.md", "project", projectId]
    ])
    const other = await attempt(member.client.api.files.list({ urlParams: { scope: "project", projectId } }))
    expect(other).toMatchObject({ ok: false, status: 404 })
  })

  it("lists the owner's folder as scope user, to the owner only", async () => {
    const listed = await run(context.owner.client.api.files.list({ urlParams: { scope: "user", path: "letters" } }))
    expect(listed.map((entry) => entry.name)).toEqual(["to-ada.txt"])
    expect(await attempt(member.client.api.files.list({ urlParams: { scope: "user" } }))).toMatchObject({
      ok: false,
      status: 403
    })
  })

  it("refuses a bad scope, a missing or misplaced projectId, a climbing path, a file as a folder", async () => {
    const ask = (query: string) => member.client.raw("GET", `/api/files${query}`)
    const cases: Array<[string, number, string]> = [
      ["", 400, "invalid_request"],
      ["?scope=everything", 400, "invalid_request"],
      ["?scope=project", 400, "invalid_request"],
      ["?scope=upload&projectId=abc", 400, "invalid_request"],
      ["?scope=upload&path=../..", 400, "invalid_path"],
      ["?scope=upload&path=same.txt", 400, "not_a_folder"],
      ["?scope=upload&path=nowhere", 404, "not_found"]
    ]
    for (const [query, status, code] of cases) {
      const answer = await ask(query)
      expect([query, answer.status, apiError(answer).error]).toEqual([query, status, code])
    }
    expect(apiError(await ask("?scope=everything")).details).toBeDefined()
  })

  it("searches names across one's own scopes only", async () => {
    const found = await run(context.owner.client.api.files.search({ urlParams: { q: "REPORT" } }))
    expect(found.map((entry) => [entry.scope, entry.path])).toEqual([["project", "out/report.md"]])
    expect(await run(context.owner.client.api.files.search({ urlParams: { q: "ada" } }))).toMatchObject([
      { scope: "user", path: "letters/to-ada.txt" }
    ])
    expect(await run(member.client.api.files.search({ urlParams: { q: "notes" } }))).toEqual([])
    expect((await member.client.raw("GET", "/api/files/search")).status).toBe(400)
  })

  it("reads text as content and anything else as base64; a bad or foreign id is refused", async () => {
    const [notes, photo] = await run(
      context.owner.client.api.files.list({ urlParams: { scope: "upload", path: "trip/day1" } })
    )
    expect(await run(context.owner.client.api.files.read({ urlParams: { id: notes!.id } }))).toEqual({
      content: "first notes",
      mime: "text/plain"
    })
    expect(await run(context.owner.client.api.files.read({ urlParams: { id: photo!.id } }))).toEqual({
      base64: "iVBORwAB",
      mime: "image/png"
    })
    // The member's own uploads hold no such path: an id never reaches into another being's files.
    expect(await attempt(member.client.api.files.read({ urlParams: { id: notes!.id } }))).toMatchObject({
      ok: false,
      status: 404
    })
    const projectFile = encodeFileId({ scope: "project", projectId, path: "out/report.md" })
    expect(await attempt(member.client.api.files.read({ urlParams: { id: projectFile } }))).toMatchObject({
      ok: false,
      status: 404
    })
    const userFile = encodeFileId({ scope: "user", projectId: null, path: "letters/to-ada.txt" })
    expect(await attempt(member.client.api.files.read({ urlParams: { id: userFile } }))).toMatchObject({
      ok: false,
      status: 404
    })
    const climbing = encodeFileId({ scope: "upload", projectId: null, path: "../../node.db" })
    expect(apiError(await member.client.raw("GET", `/api/files/read?id=${climbing}`)).error).toBe("invalid_path")
    expect(apiError(await member.client.raw("GET", "/api/files/read?id=not%20an%20id")).error).toBe("invalid_request")
    const folder = encodeFileId({ scope: "upload", projectId: null, path: "trip" })
    expect(apiError(await context.owner.client.raw("GET", `/api/files/read?id=${folder}`)).error).toBe("not_a_file")
  })

  it("answers read up to 1 MiB; a larger file is for download", async () => {
    writeFileSync(join(uploadsOf(member.being.id), "large.txt"), "a".repeat(1024 * 1024 + 1))
    const id = encodeFileId({ scope: "upload", projectId: null, path: "large.txt" })
    const answer = await member.client.raw("GET", `/api/files/read?id=${id}`)
    expect([answer.status, apiError(answer).error]).toEqual([400, "file_too_large"])
  })
})

describe("download", () => {
  const content = "0123456789abcdefghij"
  let id: string
  beforeAll(() => {
    mkdirSync(join(uploadsOf(member.being.id), "docs"), { recursive: true })
    writeFileSync(join(uploadsOf(member.being.id), "docs", "résumé 2024.txt"), content)
    id = encodeFileId({ scope: "upload", projectId: null, path: "docs/résumé 2024.txt" })
  })

  it("sends the whole file as an attachment with Accept-Ranges, ETag and Last-Modified", async () => {
    const answer = await download(member.client, id)
    expect(answer.status).toBe(200)
    expect(answer.text).toBe(content)
    expect(answer.headers["accept-ranges"]).toBe("bytes")
    expect(answer.headers.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/)
    expect(new Date(answer.headers["last-modified"]!).getTime()).not.toBeNaN()
    expect(answer.headers["content-length"]).toBe("20")
    expect(answer.headers["content-disposition"]).toBe(
      `attachment; filename="r?sum? 2024.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%202024.txt`
    )
  })

  it("answers one range with 206 and Content-Range; several apart with the whole file; overlapping ones combined", async () => {
    const one = await download(member.client, id, { range: "bytes=2-5" })
    expect([one.status, one.text, one.headers["content-range"], one.headers["content-length"]]).toEqual([
      206,
      "2345",
      "bytes 2-5/20",
      "4"
    ])
    const suffix = await download(member.client, id, { range: "bytes=-3" })
    expect([suffix.status, suffix.text, suffix.headers["content-range"]]).toEqual([206, "hij", "bytes 17-19/20"])
    const clipped = await download(member.client, id, { range: "bytes=15-99" })
    expect([clipped.status, clipped.text, clipped.headers["content-range"]]).toEqual([206, "fghij", "bytes 15-19/20"])
    const several = await download(member.client, id, { range: "bytes=0-1,5-6" })
    expect([several.status, several.text]).toEqual([200, content])
    const overlapping = await download(member.client, id, { range: "bytes=0-3,2-5" })
    expect([overlapping.status, overlapping.text]).toEqual([206, "012345"])
  })

  it("answers a range outside the file with 416 and 'bytes */size', still with the validators", async () => {
    const answer = await download(member.client, id, { range: "bytes=20-30" })
    expect([answer.status, answer.headers["content-range"], apiError(answer).error]).toEqual([
      416,
      "bytes */20",
      "range_not_satisfiable"
    ])
    expect(answer.headers.etag).toBeDefined()
    expect(answer.headers["accept-ranges"]).toBe("bytes")
  })

  it("ignores an unparseable Range and a unit other than bytes", async () => {
    for (const range of ["bytes=abc", "bytes=5", "items=0-1", "bytes 0-1"]) {
      const answer = await download(member.client, id, { range })
      expect([range, answer.status, answer.text]).toEqual([range, 200, content])
    }
  })

  it("answers 304 on a matching If-None-Match or an unchanged If-Modified-Since", async () => {
    const first = await download(member.client, id)
    const { etag, "last-modified": modified } = first.headers
    for (const headers of [
      { "if-none-match": etag! },
      { "if-none-match": `W/${etag}, "other"` },
      { "if-modified-since": modified! }
    ]) {
      const answer = await download(member.client, id, headers)
      expect([
        answer.status,
        answer.text,
        answer.headers.etag,
        answer.headers["last-modified"],
        answer.headers["accept-ranges"]
      ]).toEqual([304, "", etag, modified, "bytes"])
    }
    expect((await download(member.client, id, { "if-none-match": '"other"' })).status).toBe(200)
    expect((await download(member.client, id, { "if-modified-since": "Mon, 01 Jan 2001 00:00:00 GMT" })).status).toBe(
      200
    )
  })

  it("honours If-Range only when it names this very version; If-Match failing is 412", async () => {
    const { etag, "last-modified": modified } = (await download(member.client, id)).headers
    expect((await download(member.client, id, { range: "bytes=0-1", "if-range": etag! })).status).toBe(206)
    expect((await download(member.client, id, { range: "bytes=0-1", "if-range": modified! })).status).toBe(206)
    for (const ifRange of ['"stale"', `W/${etag}`, "Mon, 01 Jan 2001 00:00:00 GMT"]) {
      const answer = await download(member.client, id, { range: "bytes=0-1", "if-range": ifRange })
      expect([ifRange, answer.status, answer.text]).toEqual([ifRange, 200, content])
    }
    expect((await download(member.client, id, { "if-match": '"stale"' })).status).toBe(412)
    expect((await download(member.client, id, { "if-match": etag! })).status).toBe(200)
  })

  it("sends a file larger than a read buffer byte for byte, whole and by a range across buffers; a client leaving mid-way frees the file", async () => {
    const bytes = randomBytes(1024 * 1024 + 777)
    const path = join(uploadsOf(member.being.id), "docs", "big.bin")
    writeFileSync(path, bytes)
    const bigId = encodeFileId({ scope: "upload", projectId: null, path: "docs/big.bin" })
    const url = `${context.node.url}/api/files/download?id=${encodeURIComponent(bigId)}`
    const headers = { cookie: member.client.cookieHeader() }
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
    expect((await download(member.client, id)).text).toBe(content)
  })

  it("answers HEAD with the same headers and no body", async () => {
    const answer = await download(member.client, id, { range: "bytes=0-1" }, "HEAD")
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
    expect(apiError(await member.client.raw("GET", "/api/files/download")).error).toBe("invalid_request")
    const folder = encodeFileId({ scope: "upload", projectId: null, path: "docs" })
    expect(apiError(await download(member.client, folder)).error).toBe("not_a_file")
    expect((await download(context.owner.client, id)).status).toBe(404)
    expect(
      (await download(member.client, encodeFileId({ scope: "project", projectId, path: "out/report.md" }))).status
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
    expect((await member.client.raw("GET", path)).status).toBe(404)
  })
})

describe("the upload rate class", () => {
  it("allows 30 uploads a minute from one address, then 429 with Retry-After", async () => {
    const answers = []
    for (let index = 0; index < 31; index++) {
      answers.push(
        await upload(
          member.client,
          [{ name: `n${index}.txt`, content: "x" }],
          { path: "many" },
          { "x-forwarded-for": "10.77.0.1" }
        )
      )
    }
    expect(answers.slice(0, 30).every((answer) => answer.status === 200)).toBe(true)
    expect([answers[30]!.status, (answers[30]!.body as { details: { class: string } }).details.class]).toEqual([
      429,
      "upload"
    ])
    expect(answers[30]!.headers.get("retry-after")).not.toBeNull()
  })
})

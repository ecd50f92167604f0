/**
 * Files through real HTTP, uploading multipart bodies: each part kept in the caller's uploads,
 * the body counted as it streams, the upload rate class; then listing, searching and reading
 * one's own scopes (what was uploaded, a project's workspace, the owner's folder).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import type { FileEntry } from "../../extensions/files/contract/records.ts"
import { encodeFileId } from "../../extensions/files/contract/file-ids.ts"
import { rawRequest } from "../support/raw-http.ts"
import { apiError, attempt, type Client, run } from "../support/node.ts"
import { filesNode, projectId, UPLOAD_LIMIT, uploadsOf } from "./files-support.ts"

const context = filesNode()

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
    expect(readFileSync(join(uploadsOf(context, context.owner.being.id), "trip", "day1", "notes.txt"), "utf8")).toBe(
      "first notes"
    )
  })

  it("keeps both files when a name is taken: the new one becomes 'name (1).ext'", async () => {
    const [first, second] = await Promise.all([
      upload(context.member.client, [{ name: "same.txt", content: "one" }]),
      upload(context.member.client, [{ name: "same.txt", content: "two" }])
    ])
    const names = [...(first!.body as Array<FileEntry>), ...(second!.body as Array<FileEntry>)]
      .map((entry) => entry.name)
      .sort()
    expect(names).toEqual(["same (1).txt", "same.txt"])
    const contents = ["same.txt", "same (1).txt"]
      .map((name) => readFileSync(join(uploadsOf(context, context.member.being.id), name), "utf8"))
      .sort()
    expect(contents).toEqual(["one", "two"])
  })

  it("refuses bad input with a named code and leaves nothing on disk", async () => {
    const before = readdirSync(uploadsOf(context, context.member.being.id)).sort()
    const cases: Array<[Awaited<ReturnType<typeof upload>>, number, string]> = [
      [await upload(context.member.client, [], { path: "x" }), 400, "no_file"],
      [
        await upload(context.member.client, [{ name: "a.txt", content: "a" }], { path: "../escape" }),
        400,
        "invalid_path"
      ],
      [await upload(context.member.client, [{ name: "a.txt", content: "a" }], { path: "/etc" }), 400, "invalid_path"],
      [
        await upload(context.member.client, [{ name: "a.txt", content: "a" }], { path: "in\0side" }),
        400,
        "invalid_path"
      ],
      [await upload(context.member.client, [{ name: "..", content: "a" }]), 400, "invalid_filename"],
      [await upload(context.member.client, [{ name: ".hidden", content: "a" }]), 400, "invalid_filename"],
      [
        await upload(context.member.client, [{ name: "ok.txt", content: "a" }], {}, { origin: "https://evil.example" }),
        403,
        "forbidden_origin"
      ],
      [
        await upload(context.member.client, [{ name: "big.bin", content: new Uint8Array(UPLOAD_LIMIT + 1) }]),
        413,
        "payload_too_large"
      ]
    ]
    for (const [answer, status, code] of cases)
      expect([answer.status, (answer.body as { error: string }).error]).toEqual([status, code])
    expect(readdirSync(uploadsOf(context, context.member.being.id)).sort()).toEqual(before)
    expect(readdirSync(join(context.node.dataDir, "upload-staging"))).toEqual([])
  })

  it("counts a chunked body as it streams: 413 past the limit, the connection closed, nothing kept", async () => {
    const boundary = "----bound"
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
    const body = `${head + "x".repeat(UPLOAD_LIMIT * 2)}\r\n--${boundary}--\r\n`
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
    const answer = await rawRequest(
      context.node.url,
      `POST /api/files/upload HTTP/1.1\r\nCookie: ${context.member.client.cookieHeader()}\r\nX-Forwarded-For: 10.99.0.1\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked`,
      chunked
    )
    expect([answer.status, (answer.body as { error: string }).error, answer.headers.connection]).toEqual([
      413,
      "payload_too_large",
      "close"
    ])
    expect(existsSync(join(uploadsOf(context, context.member.being.id), "huge.bin"))).toBe(false)
    expect(readdirSync(join(context.node.dataDir, "upload-staging"))).toEqual([])
  })

  it("refuses a body that is not multipart (415) and a caller without a session (401)", async () => {
    const json = await context.member.client.raw("POST", "/api/files/upload", { files: [] })
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
    const other = await attempt(context.member.client.api.files.list({ urlParams: { scope: "project", projectId } }))
    expect(other).toMatchObject({ ok: false, status: 404 })
  })

  it("lists the owner's folder as scope user, to the owner only", async () => {
    const listed = await run(context.owner.client.api.files.list({ urlParams: { scope: "user", path: "letters" } }))
    expect(listed.map((entry) => entry.name)).toEqual(["to-ada.txt"])
    expect(await attempt(context.member.client.api.files.list({ urlParams: { scope: "user" } }))).toMatchObject({
      ok: false,
      status: 403
    })
  })

  it("refuses a bad scope, a missing or misplaced projectId, a climbing path, a file as a folder", async () => {
    const ask = (query: string) => context.member.client.raw("GET", `/api/files${query}`)
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
    expect(await run(context.member.client.api.files.search({ urlParams: { q: "notes" } }))).toEqual([])
    expect((await context.member.client.raw("GET", "/api/files/search")).status).toBe(400)
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
    expect(await attempt(context.member.client.api.files.read({ urlParams: { id: notes!.id } }))).toMatchObject({
      ok: false,
      status: 404
    })
    const projectFile = encodeFileId({ scope: "project", projectId, path: "out/report.md" })
    expect(await attempt(context.member.client.api.files.read({ urlParams: { id: projectFile } }))).toMatchObject({
      ok: false,
      status: 404
    })
    const userFile = encodeFileId({ scope: "user", projectId: null, path: "letters/to-ada.txt" })
    expect(await attempt(context.member.client.api.files.read({ urlParams: { id: userFile } }))).toMatchObject({
      ok: false,
      status: 404
    })
    const climbing = encodeFileId({ scope: "upload", projectId: null, path: "../../node.db" })
    expect(apiError(await context.member.client.raw("GET", `/api/files/read?id=${climbing}`)).error).toBe(
      "invalid_path"
    )
    expect(apiError(await context.member.client.raw("GET", "/api/files/read?id=not%20an%20id")).error).toBe(
      "invalid_request"
    )
    const folder = encodeFileId({ scope: "upload", projectId: null, path: "trip" })
    expect(apiError(await context.owner.client.raw("GET", `/api/files/read?id=${folder}`)).error).toBe("not_a_file")
  })

  it("answers read up to 1 MiB; a larger file is for download", async () => {
    writeFileSync(join(uploadsOf(context, context.member.being.id), "large.txt"), "a".repeat(1024 * 1024 + 1))
    const id = encodeFileId({ scope: "upload", projectId: null, path: "large.txt" })
    const answer = await context.member.client.raw("GET", `/api/files/read?id=${id}`)
    expect([answer.status, apiError(answer).error]).toEqual([400, "file_too_large"])
  })
})

describe("the upload rate class", () => {
  it("allows 30 uploads a minute from one address, then 429 with Retry-After", async () => {
    const answers = []
    for (let index = 0; index < 31; index++) {
      answers.push(
        await upload(
          context.member.client,
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

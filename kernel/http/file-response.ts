/**
 * A file's bytes as a static server answers them (RFC 9110 ranges and conditional requests), the
 * one way every file route of the node serves a file. The validators are send's building blocks
 * (`etag`, `fresh`, `range-parser`); the order of the checks is RFC 9110 §13.2.2's:
 *
 * - every answer carries Accept-Ranges, a strong ETag (size and mtime, as nginx makes it) and
 *   Last-Modified, so a client can revalidate or resume from any of them;
 * - If-Match (strong comparison) or, without it, If-Unmodified-Since failing: 412;
 * - If-None-Match (weak comparison) or, without it, If-Modified-Since matching: 304;
 * - one byte range: 206 with Content-Range; none satisfiable: 416 whose Content-Range gives the size
 *   (a star for the range);
 *   an unparseable Range, a unit other than bytes, or an If-Range that does not match exactly
 *   (strong ETag, or the very Last-Modified date): the whole file, 200;
 * - several ranges: overlapping and adjacent ones are combined; if more than one remains, the
 *   whole file, 200 (as `send` does; a client that asked for several parts gets them all in one
 *   stream, and no multipart/byteranges body is built on the node).
 *
 * The body is read from the open file into reused buffers as the client takes it (file-body.ts):
 * never read whole. HEAD gets the same headers and no body. Every answer is sandboxed (CSP `sandbox`).
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { create as contentDisposition } from "content-disposition"
import etag from "etag"
import fresh from "fresh"
import type { Stats } from "node:fs"
import type { FileHandle } from "node:fs/promises"
import rangeParser from "range-parser"
import { fileBody } from "./file-body.ts"

export interface ServedFile {
  /** Open for reading; closed by the answer (when its stream ends, or at once when it has none). */
  readonly handle: FileHandle
  /** The open handle's own stat, so the validators describe exactly the bytes sent. */
  readonly stats: Stats
  /** The file name offered to the browser. */
  readonly name: string
  readonly contentType: string
  /** `attachment` for downloads; a route that previews (project outputs) may say `inline`. */
  readonly disposition: "attachment" | "inline"
  /** The CSP answered (default `sandbox`): a preview may let scripts run, still in an opaque origin. */
  readonly policy?: "sandbox" | "sandbox allow-scripts"
}

type RequestHeaders = Readonly<Record<string, string | undefined>>

/** The entity tags of an If-Match or If-None-Match list. */
const tagList = (header: string) =>
  header
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "")

const strongMatch = (header: string, tag: string) => header.trim() === "*" || tagList(header).includes(tag)

const httpDate = (text: string | undefined) => {
  const time = text === undefined ? Number.NaN : Date.parse(text)
  return Number.isNaN(time) ? null : time
}

/** Whole seconds: HTTP dates carry no milliseconds. */
const modifiedSeconds = (stats: Stats) => Math.floor(stats.mtimeMs / 1000)

const preconditionFailed = (request: RequestHeaders, tag: string, stats: Stats) => {
  const ifMatch = request["if-match"]
  if (ifMatch !== undefined) return !strongMatch(ifMatch, tag)
  const since = httpDate(request["if-unmodified-since"])
  return since !== null && modifiedSeconds(stats) > Math.floor(since / 1000)
}

/** If-Range holds when it names this very version: the strong ETag, or exactly its Last-Modified date. */
const ifRangeHolds = (request: RequestHeaders, tag: string, stats: Stats) => {
  const ifRange = request["if-range"]
  if (ifRange === undefined) return true
  if (ifRange.includes('"')) return ifRange.trim() === tag
  const date = httpDate(ifRange)
  return date !== null && Math.floor(date / 1000) === modifiedSeconds(stats)
}

const errorBody = (error: string, message: string) => JSON.stringify({ error, message })

/** The answer to one request for one file. */
export const fileResponse = (
  method: string,
  request: RequestHeaders,
  file: ServedFile
): HttpServerResponse.HttpServerResponse => {
  const size = file.stats.size
  const tag = etag(file.stats, { weak: false })
  const validators = {
    "accept-ranges": "bytes",
    etag: tag,
    "last-modified": file.stats.mtime.toUTCString(),
    "cache-control": "private, no-cache",
    // Opened in a tab, an HTML file runs in an opaque origin, never the node's with the caller's session.
    "content-security-policy": file.policy ?? "sandbox",
    // On every answer, the 304, 412 and 416 too: the second document says "always Content-Disposition".
    "content-disposition": contentDisposition(file.name, { type: file.disposition })
  }
  const without = (status: number, headers: Record<string, string>, body?: string) => {
    void file.handle.close()
    const all = { ...validators, ...headers }
    return body === undefined
      ? HttpServerResponse.empty({ status, headers: all })
      : HttpServerResponse.text(body, { status, headers: all, contentType: "application/json" })
  }

  if (preconditionFailed(request, tag, file.stats)) {
    return without(
      412,
      {},
      errorBody("precondition_failed", "The file has changed since the version your request names.")
    )
  }
  // Without the request's Cache-Control: `no-cache` there speaks to caches, not to the origin
  // (RFC 9111 §5.2.1.4), and fetch() adds it to every request carrying a validator; nginx ignores it too.
  const { "cache-control": _toCaches, ...conditions } = request
  if (fresh(conditions, { etag: tag, "last-modified": validators["last-modified"] })) return without(304, {})

  let start = 0
  let end = size - 1
  let status = 200
  const range = request.range
  if (range !== undefined && /^ *bytes=/.test(range) && ifRangeHolds(request, tag, file.stats)) {
    const ranges = rangeParser(size, range, { combine: true })
    if (ranges === -1) {
      return without(
        416,
        { "content-range": `bytes */${size}` },
        errorBody("range_not_satisfiable", `The file is ${size} bytes long; no range asked for lies inside it.`)
      )
    }
    if (ranges !== -2 && ranges.type === "bytes" && ranges.length === 1) {
      start = ranges[0]!.start
      end = ranges[0]!.end
      status = 206
    }
  }

  const length = size === 0 ? 0 : end - start + 1
  const headers: Record<string, string> = {
    ...validators,
    "content-type": file.contentType,
    "content-length": String(length),
    ...(status === 206 ? { "content-range": `bytes ${start}-${end}/${size}` } : {})
  }
  if (method === "HEAD" || length === 0) {
    void file.handle.close()
    return HttpServerResponse.empty({ status, headers })
  }
  // The body closes the handle when it is sent or the client goes away.
  return HttpServerResponse.raw(fileBody(file.handle, start, end), { status, headers })
}

/**
 * Every request is bounded before it is read: body size (413, counted as it streams), nesting
 * depth (400), content type (415), and the size of a bad value quoted back (at most 200
 * characters). The node runs in this process, so its memory is this process's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { at } from "../support/json.ts"
import { apiError, Client, run, startNode, type TestNode } from "../support/node.ts"
import { rawRequest, streamBody } from "../support/raw-http.ts"

let node: TestNode
beforeAll(async () => {
  node = await startNode()
})
afterAll(() => node.close())

const MiB = 1024 * 1024

/** A fresh address for each request, so the rate limits stay out of the way. */
let address = 0
const from = () => `X-Forwarded-For: 10.77.${(++address >> 8) & 255}.${address & 255}`

const loginHead = (type = "application/json") => `POST /api/auth/login HTTP/1.1\r\nContent-Type: ${type}\r\n${from()}`

/**
 * The node is not wedged reading what it refused: a cheap request still answers in moments. The
 * bound is generous (a second was passed by a busy two-core machine running the suite); a node
 * reading 156 MiB before answering would take far longer.
 */
const healthAnswersQuickly = async () => {
  const started = performance.now()
  await run(new Client(node.url).api.health.health())
  expect(performance.now() - started).toBeLessThan(5_000)
}

describe("body size (MAX_JSON_BYTES, 1 MiB by default)", () => {
  it("refuses a declared Content-Length over the limit with 413 before reading a byte of it", async () => {
    const { answer, bytesSent } = await streamBody(node.url, loginHead(), 0, { contentLength: 156 * MiB })
    expect(answer?.status).toBe(413)
    expect(apiError(answer!).error).toBe("payload_too_large")
    expect(answer?.headers.connection).toBe("close")
    expect(bytesSent).toBe(0)
    await healthAnswersQuickly()
  })

  it("counts a chunked body as it arrives: 413 after about the limit, the connection closed, memory bounded", async () => {
    const before = process.memoryUsage().rss
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
    const { answer, bytesSent } = await streamBody(node.url, loginHead(), 200 * MiB)
    clearInterval(sampler)
    expect(answer?.status).toBe(413)
    expect(answer?.body).toMatchObject({ error: "payload_too_large", details: { limitBytes: MiB } })
    // The node stopped reading at the limit; what got written past it sits in socket buffers.
    expect(bytesSent).toBeLessThan(32 * MiB)
    expect(peak - before).toBeLessThan(64 * MiB)
    await healthAnswersQuickly()
  })

  it("takes a body just under the limit", async () => {
    const padding = "x".repeat(MiB - 100)
    const body = JSON.stringify({ email: "someone@example.org", password: "wrong password", padding })
    const answer = await rawRequest(node.url, `${loginHead()}\r\nContent-Length: ${Buffer.byteLength(body)}`, body)
    expect(answer.status).toBe(401)
    expect(apiError(answer).error).toBe("invalid_credentials")
  })
})

describe("nesting", () => {
  const nested = (depth: number) => `{"email":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)},"password":"x"}`

  it("refuses JSON nested deeper than 64 levels with 400, never a 500", async () => {
    for (const depth of [65, 10_000, 200_000]) {
      const body = nested(depth)
      const answer = await rawRequest(node.url, `${loginHead()}\r\nContent-Length: ${body.length}`, body)
      expect(answer.status).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
      expect(apiError(answer).message).toMatch(/64 levels/)
    }
  })

  it("reads 64 levels as JSON and lets the schema judge it", async () => {
    const body = nested(64)
    const answer = await rawRequest(node.url, `${loginHead()}\r\nContent-Length: ${body.length}`, body)
    expect(answer.status).toBe(400)
    expect(apiError(answer).message).not.toMatch(/levels/)
    expect(at(apiError(answer).details, 0, "path")).toEqual(["email"])
  })

  it("counts brackets inside strings as text", async () => {
    const body = JSON.stringify({ email: "[".repeat(500), password: "{".repeat(70) })
    const answer = await rawRequest(node.url, `${loginHead()}\r\nContent-Length: ${body.length}`, body)
    expect(answer.status).toBe(400)
    expect(at(apiError(answer).details, 0, "path")).toEqual(["email"])
  })
})

describe("content types", () => {
  const send = (type: string | null, body: string) =>
    rawRequest(
      node.url,
      `POST /api/auth/login HTTP/1.1\r\n${type === null ? "" : `Content-Type: ${type}\r\n`}${from()}\r\nContent-Length: ${body.length}`,
      body
    )
  const json = JSON.stringify({ email: "someone@example.org", password: "wrong password" })

  it("refuses a body of a type the route does not read with 415", async () => {
    const boundary = "----x"
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.cd\r\n--${boundary}--\r\n`
    for (const [type, body] of [
      [`multipart/form-data; boundary=${boundary}`, multipart],
      ["multipart/form-data", multipart],
      ["application/x-www-form-urlencoded", "email=a%40b.cd&password=x"],
      ["text/plain", json],
      [null, json]
    ] as const) {
      const answer = await send(type, body)
      expect(answer.status, `${type}`).toBe(415)
      expect(answer.body).toMatchObject({
        error: "unsupported_media_type",
        details: { accepted: ["application/json"] }
      })
    }
  })

  it("takes JSON with parameters and in any letter case", async () => {
    for (const type of ["application/json", "application/json; charset=utf-8", "Application/JSON"]) {
      const answer = await send(type, json)
      expect(answer.status, type).toBe(401)
      expect(apiError(answer).error).toBe("invalid_credentials")
    }
  })

  it("lets a route without a body be called without one", async () => {
    const answer = await rawRequest(node.url, `POST /api/auth/logout HTTP/1.1\r\n${from()}\r\nContent-Length: 0`)
    expect(answer.status).toBe(401)
    expect(apiError(answer).error).toBe("unauthorized")
  })
})

describe("bad values quoted back", () => {
  it("quotes at most 200 characters of a bad value", async () => {
    const huge = "y".repeat(600_000)
    for (const body of [
      { email: "joiner@example.org", name: huge, why: "" },
      { email: huge, name: "x", why: "" }
    ]) {
      // Values the contract's schema refuses before they leave the typed client: sent raw.
      const answer = await new Client(node.url).raw("POST", "/api/auth/waitlist", body)
      expect(answer.status).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
      expect(answer.text.length).toBeLessThan(3_000)
      // The value as quoted ("yyy…) is 200 characters, then how long it really was.
      expect(apiError(answer).message).toMatch(/"y{199}… \(600002 characters in all\)/)
      expect(at(apiError(answer).details, 0, "message")).toMatch(/"y{199}… \(600002 characters in all\)/)
    }
  })
})

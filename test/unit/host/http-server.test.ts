/**
 * The node's HttpServer (host/http/server.ts) writes every kind of answer as the platform's
 * NodeHttpServer did, over a real socket: bodies of each kind, cookies, HEAD, a defect, and a
 * client that leaves before the answer (its fiber is interrupted).
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Stream from "effect/Stream"
import { createServer, request } from "node:http"
import { Readable } from "node:stream"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodeHttpServerLayer } from "../../../host/http/server.ts"

const started = Effect.runSync(Deferred.make<void>())
const interrupted = Effect.runSync(Deferred.make<void>())
const encoder = new TextEncoder()

const app = HttpRouter.empty.pipe(
  HttpRouter.get("/bytes", HttpServerResponse.uint8Array(encoder.encode("bytes"), { contentType: "text/plain" })),
  HttpRouter.get("/text", HttpServerResponse.text("text", { headers: { "x-kind": "text" } })),
  HttpRouter.get(
    "/raw",
    Effect.sync(() => HttpServerResponse.raw(Readable.from(["a node ", "stream"]), { status: 206 }))
  ),
  HttpRouter.get("/stream", HttpServerResponse.stream(Stream.make("one ", "two").pipe(Stream.encodeText))),
  HttpRouter.get(
    "/form",
    Effect.sync(() => {
      const form = new FormData()
      form.append("field", "value")
      return HttpServerResponse.formData(form)
    })
  ),
  HttpRouter.get("/empty", HttpServerResponse.empty({ status: 204 })),
  HttpRouter.get(
    "/cookies",
    Effect.zipRight(
      HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.orDie(HttpServerResponse.setCookie(response, "late", "2"))
      ),
      Effect.orDie(HttpServerResponse.setCookie(HttpServerResponse.text("ok"), "early", "1"))
    )
  ),
  HttpRouter.get("/defect", Effect.die(new Error("boom"))),
  HttpRouter.get(
    "/slow",
    Effect.zipRight(
      Deferred.succeed(started, undefined),
      Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)))
    )
  )
)

const runtime = ManagedRuntime.make(
  HttpServer.serve(app).pipe(Layer.provideMerge(nodeHttpServerLayer(createServer(), { port: 0, host: "127.0.0.1" })))
)
let base = ""
beforeAll(async () => {
  const address = await runtime.runPromise(HttpServer.addressWith((address) => Effect.succeed(address)))
  base = address._tag === "TcpAddress" ? `http://127.0.0.1:${address.port}` : ""
})
afterAll(() => runtime.dispose())

const get = async (path: string, method = "GET") => {
  const answer = await fetch(base + path, { method })
  return { status: answer.status, headers: answer.headers, text: await answer.text() }
}

describe("the node's HttpServer", () => {
  it("writes each body kind with its status and headers", async () => {
    expect(await get("/bytes")).toMatchObject({ status: 200, text: "bytes" })
    expect((await get("/bytes")).headers.get("content-type")).toBe("text/plain")
    const text = await get("/text")
    expect(text).toMatchObject({ status: 200, text: "text" })
    expect(text.headers.get("x-kind")).toBe("text")
    expect(await get("/raw")).toMatchObject({ status: 206, text: "a node stream" })
    expect(await get("/stream")).toMatchObject({ status: 200, text: "one two" })
    const form = await get("/form")
    expect(form.headers.get("content-type")).toMatch(/^multipart\/form-data; boundary=/)
    expect(form.text).toContain("value")
    expect(await get("/empty")).toMatchObject({ status: 204, text: "" })
  })

  it("sends the response's cookies and those a pre-response handler adds, each as its own set-cookie", async () => {
    const answer = await get("/cookies")
    expect(
      answer.headers
        .getSetCookie()
        .map((line) => line.split(";")[0])
        .sort()
    ).toEqual(["early=1", "late=2"])
  })

  it("answers HEAD with the headers and no body", async () => {
    const answer = await get("/text", "HEAD")
    expect(answer).toMatchObject({ status: 200, text: "" })
    expect(answer.headers.get("content-length")).toBe("4")
  })

  it("answers a defect with a 500 and a missing route with a 404, and keeps serving", async () => {
    expect((await get("/defect")).status).toBe(500)
    expect((await get("/nowhere")).status).toBe(404)
    expect((await get("/text")).status).toBe(200)
  })

  it("interrupts the request's fiber when the client goes away before the answer", async () => {
    const sent = request(`${base}/slow`)
    sent.on("error", () => {})
    sent.end()
    // Once the route runs (and would wait forever), the client hangs up.
    await runtime.runPromise(Deferred.await(started))
    sent.destroy()
    await runtime.runPromise(Deferred.await(interrupted))
  })
})

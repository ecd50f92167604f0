/**
 * The endpoint declarations that no route of the node uses yet, on a small contract served by
 * the node's own request policy: a signed wire route (federation, seeds) is exempt from the
 * same-origin check; a route that takes more than MAX_JSON_BYTES declares its limit and the
 * setting that overrides it; a route declares the content types it reads.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpServer from "@effect/platform/HttpServer"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Schema from "effect/Schema"
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RateLimiter } from "../../kernel/http/rate-limit.ts"
import { serve } from "../../host/http/request-policy.ts"
import { listeningUrl } from "../../kernel/origin.ts"
import { BodyLimit, ContentTypes, WireRoute } from "../../kernel/contract/endpoint-policy.ts"
import { nodeSettingsLayer } from "../../host/settings.ts"
import { apiError } from "../support/client.ts"
import { rawRequest } from "../support/raw-http.ts"

const Envelope = Schema.Struct({ data: Schema.String })
const Ok = Schema.Struct({ ok: Schema.Boolean })

class PeerApi extends HttpApiGroup.make("peer")
  .add(HttpApiEndpoint.post("deliver", "/deliver").annotate(WireRoute, true).setPayload(Envelope).addSuccess(Ok))
  .add(HttpApiEndpoint.post("plain", "/plain").setPayload(Envelope).addSuccess(Ok))
  .add(
    HttpApiEndpoint.post("upload", "/upload")
      .annotate(BodyLimit, { bytes: 4096, setting: "TEST_UPLOAD_BYTES" })
      .setPayload(Envelope)
      .addSuccess(Ok)
  )
  .add(
    HttpApiEndpoint.post("ndjson", "/ndjson")
      .annotate(ContentTypes, ["application/json", "application/x-ndjson"])
      .setPayload(Envelope)
      .addSuccess(Ok)
  )
  .prefix("/api/peer") {}

class TestApi extends HttpApi.make("test").add(PeerApi) {}

const ok = () => Effect.succeed({ ok: true })
const handlers = HttpApiBuilder.group(TestApi, "peer", (h) =>
  h.handle("deliver", ok).handle("plain", ok).handle("upload", ok).handle("ndjson", ok)
)

const layer = serve.pipe(
  Layer.provide(HttpApiBuilder.api(TestApi).pipe(Layer.provide(handlers))),
  Layer.provide(RateLimiter.layer),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  Layer.provide(nodeSettingsLayer({ maxJsonBytes: 2048 })),
  Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map([["TEST_UPLOAD_BYTES", "8192"]]))))
)

let runtime: ManagedRuntime.ManagedRuntime<HttpServer.HttpServer, unknown>
let url: string
beforeAll(async () => {
  runtime = ManagedRuntime.make(layer)
  url = listeningUrl((await runtime.runPromise(HttpServer.HttpServer)).address)
})
afterAll(() => runtime.dispose())

const post = (path: string, body: string, headers = "", type = "application/json") =>
  rawRequest(
    url,
    `POST ${path} HTTP/1.1\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}${headers}`,
    body
  )

const envelope = (size: number) => JSON.stringify({ data: "x".repeat(size) })

describe("declarations on an endpoint", () => {
  it("exempts a wire route from the same-origin check, and only that route", async () => {
    const crossSite = "\r\nOrigin: https://peer.example\r\nSec-Fetch-Site: cross-site"
    expect((await post("/api/peer/deliver", envelope(1), crossSite)).status).toBe(200)
    const plain = await post("/api/peer/plain", envelope(1), crossSite)
    expect(plain.status).toBe(403)
    expect(apiError(plain).error).toBe("forbidden_origin")
  })

  it("holds a route without its own limit to MAX_JSON_BYTES", async () => {
    expect((await post("/api/peer/plain", envelope(1900))).status).toBe(200)
    expect((await post("/api/peer/plain", envelope(3000))).status).toBe(413)
  })

  it("gives a route its declared limit, overridden by the setting it names", async () => {
    expect((await post("/api/peer/upload", envelope(6000))).status).toBe(200)
    const over = await post("/api/peer/upload", envelope(9000))
    expect(over.status).toBe(413)
    expect(apiError(over).details).toMatchObject({ limitBytes: 8192 })
  })

  it("takes the content types a route declares", async () => {
    expect((await post("/api/peer/ndjson", envelope(1), "", "application/x-ndjson")).status).not.toBe(415)
    expect((await post("/api/peer/plain", envelope(1), "", "application/x-ndjson")).status).toBe(415)
  })
})

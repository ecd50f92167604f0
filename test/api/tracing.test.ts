/**
 * Traces on a real node: with OTEL_EXPORTER_OTLP_ENDPOINT set, each request is a server span named by its route and
 * the spans its work declares hang from it, exported over OTLP/HTTP JSON to the collector; the sampler's ratio decides
 * per trace; unset, the node makes no span at all.
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { withTracing } from "../../extensions/health/tracing.ts"
import { registerOwner, startNode, type TestNode } from "../support/node.ts"
import { type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.ts"

let collector: OtlpReceiver
beforeAll(async () => {
  collector = await startOtlpReceiver()
})
afterAll(() => collector.close())

const stringAttribute = (span: OtlpReceiver["spans"][number], key: string) =>
  span.attributes.find((attribute) => attribute.key === key)?.value.stringValue

describe("with a collector and every trace sampled", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startNode({
      otlpEndpoint: Option.some(`${collector.endpoint}/`),
      tracesSampleRatio: 1,
      otelServiceName: "node-under-test"
    })
  })
  afterAll(() => node.close())

  it("exports each request as a server span with its route, and the spans of its work under it", async () => {
    const owner = await registerOwner(node)
    expect((await owner.client.raw("GET", "/api/llm/usage")).status).toBe(200)

    await expect
      .poll(() => collector.spans.find((span) => span.name === "GET /api/llm/usage"), { timeout: 15_000 })
      .toBeDefined()
    const request = collector.spans.find((span) => span.name === "GET /api/llm/usage")!
    expect(request.kind).toBe(2)
    expect(request.parentSpanId ?? "").toBe("")
    expect(stringAttribute(request, "http.route")).toBe("/api/llm/usage")
    expect(request.serviceName).toBe("node-under-test")
    await expect
      .poll(() => collector.spans.find((span) => span.name === "models.usage" && span.traceId === request.traceId))
      .toMatchObject({ parentSpanId: request.spanId })
    expect(collector.requests.every((sent) => sent.path === "/v1/traces")).toBe(true)
    expect(collector.requests[0]?.contentType).toBe("application/json")
  })
})

describe("with a collector and no trace sampled", () => {
  it("exports nothing, even after the node flushed on closing", async () => {
    const quiet = await startOtlpReceiver()
    const node = await startNode({ otlpEndpoint: Option.some(quiet.endpoint), tracesSampleRatio: 0 })
    const owner = await registerOwner(node)
    for (let i = 0; i < 5; i++) expect((await owner.client.raw("GET", "/api/llm/usage")).status).toBe(200)
    await node.close()
    expect(quiet.spans.map((span) => span.name)).toEqual([])
    await quiet.close()
  })
})

describe("without a collector", () => {
  it("turns tracing off for everything the node builds, so no span is made", async () => {
    const seen: Array<boolean> = []
    const probe = Layer.effectDiscard(
      Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (enabled) => Effect.sync(() => seen.push(enabled)))
    )
    await Effect.runPromise(Effect.scoped(Layer.build(withTracing({ otlpEndpoint: Option.none() })(probe))))
    await Effect.runPromise(
      Effect.scoped(Layer.build(withTracing({ otlpEndpoint: Option.some(collector.endpoint) })(probe)))
    )
    expect(seen).toEqual([false, true])
  })
})

/**
 * A trace collector for tests: an OTLP/HTTP receiver on loopback that takes `POST /v1/traces` in OTLP's JSON encoding
 * (what an OpenTelemetry Collector's `otlphttp` receiver takes) and keeps every span it was sent.
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
  /** When the span started and ended, in nanoseconds since the epoch (OTLP's JSON gives them as strings). */
  readonly startTimeUnixNano?: string
  readonly endTimeUnixNano?: string
  /** The `service.name` of the resource the span came with. */
  readonly serviceName: string | undefined
}

export interface OtlpReceiver {
  /** The endpoint to set as OTEL_EXPORTER_OTLP_ENDPOINT (traces go to its /v1/traces). */
  readonly endpoint: string
  readonly spans: ReadonlyArray<ReceivedSpan>
  /** Every request's path and content type, the wrong ones included. */
  readonly requests: ReadonlyArray<{ readonly path: string; readonly contentType: string | undefined }>
  readonly close: () => Promise<void>
}

interface TracesRequest {
  readonly resourceSpans?: ReadonlyArray<{
    readonly resource?: { readonly attributes?: ReadonlyArray<{ key: string; value: { stringValue?: string } }> }
    readonly scopeSpans?: ReadonlyArray<{ readonly spans?: ReadonlyArray<Omit<ReceivedSpan, "serviceName">> }>
  }>
}

export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  const spans: Array<ReceivedSpan> = []
  const requests: Array<{ path: string; contentType: string | undefined }> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      requests.push({ path: request.url ?? "", contentType: request.headers["content-type"] })
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end()
        return
      }
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as TracesRequest
      for (const resourceSpans of body.resourceSpans ?? []) {
        const serviceName = resourceSpans.resource?.attributes?.find((attribute) => attribute.key === "service.name")
          ?.value.stringValue
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) spans.push({ ...span, serviceName })
        }
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

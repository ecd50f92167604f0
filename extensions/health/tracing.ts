/**
 * Traces, when the owner points the node at a collector: with OTEL_EXPORTER_OTLP_ENDPOINT set, the spans the code
 * declares (`Effect.withSpan`, and one per request: host/http/request-metrics.ts) are exported over OTLP/HTTP in JSON
 * by @effect/opentelemetry's OtlpTracer, a share of them (OTEL_TRACES_SAMPLER_ARG, 0.1 unless set) decided once per
 * trace at its root and followed by its children, as OpenTelemetry's `parentbased_traceidratio` sampler does. A
 * request's trace is decided before it runs, by the request's wrapper, which runs the others with the tracer off (a
 * span not sampled still costs a copy of the fiber's context); its server span carries that choice in its context. Unset,
 * tracing is off for the whole node (`currentTracerEnabled` false): no span is made. What leaves the host:
 * docs/privacy.md.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as OtlpSerialization from "@effect/opentelemetry/OtlpSerialization"
import * as OtlpTracer from "@effect/opentelemetry/OtlpTracer"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { hostVersion } from "../../kernel/version.ts"
import { healthSettingsConfig, type HealthSettingsShape } from "./settings.ts"

const randomHex = (length: number) => {
  let hex = ""
  for (let i = 0; i < length; i++) hex += Math.floor(Math.random() * 16).toString(16)
  return hex
}

/** A span of a trace that was not sampled: it keeps the trace's identity for its children and records nothing. */
const unsampledSpan = (
  name: string,
  parent: Option.Option<Tracer.AnySpan>,
  context: Context.Context<never>,
  links: ReadonlyArray<Tracer.SpanLink>,
  startTime: bigint,
  kind: Tracer.SpanKind
): Tracer.Span => ({
  _tag: "Span",
  name,
  spanId: randomHex(16),
  traceId: Option.isSome(parent) ? parent.value.traceId : randomHex(32),
  parent,
  context,
  status: { _tag: "Started", startTime },
  attributes: new Map(),
  links,
  sampled: false,
  kind,
  end: () => {},
  attribute: () => {},
  event: () => {},
  addLinks: () => {}
})

/** In a root span's context (`withSpan`'s `context` option) when whoever made it already chose to sample its trace. */
class ChosenForSampling extends Context.Tag("health/ChosenForSampling")<ChosenForSampling, true>() {}

/** The span option that says so. */
export const chosenForSampling = Context.make(ChosenForSampling, true)

/**
 * `exporting`, for the share `ratio` of traces, chosen at each trace's root unless its maker chose already (a
 * request: ChosenForSampling); a child follows its parent.
 */
const sampledTracer = (ratio: number, exporting: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    span: (name, parent, context, links, startTime, kind, options) => {
      const sampled = Option.isSome(parent)
        ? parent.value.sampled
        : Context.getOption(context, ChosenForSampling)._tag === "Some" || Math.random() < ratio
      return sampled
        ? exporting.span(name, parent, context, links, startTime, kind, options)
        : unsampledSpan(name, parent, context, links, startTime, kind)
    },
    context: (f, fiber) => exporting.context(f, fiber)
  })

const exportingLayer = (settings: HealthSettingsShape, endpoint: string) =>
  Layer.unwrapScoped(
    Effect.map(
      OtlpTracer.make({
        url: `${endpoint.trim().replace(/\/+$/, "")}/v1/traces`,
        resource: { serviceName: settings.otelServiceName, serviceVersion: hostVersion }
      }),
      (exporting) => Layer.setTracer(sampledTracer(settings.tracesSampleRatio, exporting))
    )
  ).pipe(Layer.provide([FetchHttpClient.layer, OtlpSerialization.layerJson]))

/**
 * The node built with tracing as its settings say: exported to the collector when one is set, else off. Read from the
 * environment with a test's overrides on top, before anything else is built, since every span of the node is made
 * under it.
 */
export const withTracing =
  (overrides: Partial<HealthSettingsShape> = {}) =>
  <A, E, R>(node: Layer.Layer<A, E, R>) =>
    Layer.unwrapEffect(
      Effect.map(healthSettingsConfig, (base) => {
        const settings = { ...base, ...overrides }
        return Option.match(settings.otlpEndpoint, {
          onNone: () => Layer.locally(node, FiberRef.currentTracerEnabled, false),
          onSome: (endpoint) => Layer.provide(node, exportingLayer(settings, endpoint))
        })
      })
    )

/**
 * Spans on the node's hot paths, made only while tracing is on. The node turns tracing off unless
 * an OTLP endpoint is set (extensions/health/tracing.ts), but `Effect.withSpan` still costs a call
 * while it is off: a stack trace captured each time it is called, a no-op span made and put in the
 * context. On a project's task, called a dozen times, that was a measurable share of its orchestration
 * (docs/benchmarks.md).
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import type * as Tracer from "effect/Tracer"

/** `self` in a span named `name` while tracing is on; `self` alone otherwise. For spans whose attributes vary per call. */
export const tracedAs = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  name: string,
  options?: Tracer.SpanOptions
): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (tracing) =>
    tracing ? Effect.withSpan(self, name, options) : self
  )

/**
 * A span named once, to wrap each call in: made once, so its stack trace is captured once (where
 * it is declared), not at every call; like `tracedAs`, it costs nothing while tracing is off.
 */
export const spanNamed = (name: string, options?: Tracer.SpanOptions) => {
  const inSpan = Effect.withSpan(name, options)
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (tracing) => (tracing ? inSpan(self) : self))
}

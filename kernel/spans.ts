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
 * A span to wrap an effect in, pipeable as `Effect.withSpan(name, options)` is. Nothing is made while tracing is off:
 * `Effect.withSpan` captures a stack trace when it is called, even when no span will be, so the span is made at its
 * first traced use, and without the stack trace, which would name this file rather than the caller.
 */
export const spanNamed = (name: string, options?: Tracer.SpanOptions) => {
  let inSpan: (<A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) | undefined
  return <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.flatMap(FiberRef.get(FiberRef.currentTracerEnabled), (tracing) => {
      if (!tracing) return self
      inSpan ??= Effect.withSpan(name, { captureStackTrace: false, ...options })
      return inSpan(self)
    })
}

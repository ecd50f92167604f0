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

/**
 * `Effect.fn(name, options)` whose span is `spanNamed`'s: a function whose every call runs in a span named `name` while
 * tracing is on, and costs nothing for it while tracing is off (`Effect.fn` captures two stack traces at every call and
 * makes a no-op span). Like `Effect.fn`, a generator body runs afresh each time its effect runs, a body that answers an
 * effect is called when the function is, and the pipeables get the effect and the call's arguments.
 */
export const fnNamed = (name: string, options?: Tracer.SpanOptions): Effect.fn.Gen & Effect.fn.NonGen => {
  const inSpan = spanNamed(name, options)
  const made = (
    body: (...args: Array<unknown>) => unknown,
    ...pipeables: Array<(...parts: Array<unknown>) => unknown>
  ) =>
    function (this: unknown, ...args: Array<unknown>) {
      const self = this
      let effect: Effect.Effect<unknown, unknown, unknown>
      if (isGenerator(body)) {
        effect = Effect.gen(function* () {
          return yield* body.apply(self, args) as Generator<never, unknown, unknown>
        })
      } else {
        try {
          effect = body.apply(self, args) as Effect.Effect<unknown, unknown, unknown>
        } catch (error) {
          effect = Effect.die(error)
        }
      }
      for (const pipeable of pipeables) effect = pipeable(effect, ...args) as Effect.Effect<unknown, unknown, unknown>
      return inSpan(effect)
    }
  return made as unknown as Effect.fn.Gen & Effect.fn.NonGen
}

const isGenerator = (body: unknown): boolean =>
  typeof body === "function" && body.constructor?.name === "GeneratorFunction"

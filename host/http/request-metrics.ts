/**
 * Each request's time and status by route template, for /api/metrics: a histogram labelled with the method, the path
 * template of the route it reached (never the path itself, whose ids would make a series per request; `(none)` when no
 * route matches) and the status answered. Timed around the whole app, so the status is the one the client gets after
 * every middleware turned a failure into its answer (a refusal's 4xx, a defect's 500), and the time runs to the
 * answer's head; a body still streaming is not waited for. A request whose client went away first is not counted.
 *
 * The template is looked up in a table of the router's own routes (the same matcher the router uses), not handed out
 * by the route: telling it outward through the request's context would copy the node's whole context once more for
 * every request (Effect's Context is an immutable map of about 115 services here; each copy ~5–12 µs).
 *
 * With tracing on (extensions/health/tracing.ts), a share of requests (the sampler's ratio) is each a server span named
 * by its method and route, the root the spans of its work hang from; the others run with the tracer off, so a request
 * not sampled makes no span at all (a span costs a copy of that context and a stack trace).
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FindMyWay from "find-my-way-ts"
import { chosenForSampling } from "../../extensions/health/tracing.ts"
import type { NodeMetricsShape } from "../../kernel/metrics.ts"

/** From a millisecond (a session read from its cache) to ten seconds (a model's whole answer). */
const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** The status the server answers for an app's failure (the mapping host/http/server.ts writes with). */
const failedStatus = <E>(cause: Cause.Cause<E>) =>
  Effect.map(HttpServerError.causeResponse(cause), ([response]) => response.status)

/** The path template a request reaches, from the router's routes as the router itself matches them. */
const templates = (router: HttpRouter.HttpRouter<unknown, unknown>) => {
  const table = FindMyWay.make<string>()
  Chunk.forEach(router.routes, (route) => {
    if (route.method === "*") table.all(route.path, route.path)
    else table.on(route.method, route.path, route.path)
  })
  return (method: string, url: string) => table.find(method, url)?.handler ?? "(none)"
}

export interface TracingChoice {
  /** Whether the node traces at all (a collector is set). */
  readonly enabled: boolean
  /** The share of requests traced. */
  readonly ratio: number
}

/** Times the app; traces a share of its requests when tracing is on. */
export const requestMetrics = (
  metrics: NodeMetricsShape,
  router: HttpRouter.HttpRouter<unknown, unknown>,
  tracing: TracingChoice
) => {
  const requests = metrics.histogram({
    name: "pos_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer's head, by method, route template and status answered.",
    labelNames: ["method", "route", "status"],
    buckets
  })
  const templateOf = templates(router)

  const traced = <E, R>(served: HttpApp.Default<E, R>, method: string, route: string): HttpApp.Default<E, R> =>
    Effect.withSpan(
      Effect.tap(served, (response) => Effect.annotateCurrentSpan("http.response.status_code", response.status)),
      `${method} ${route}`,
      {
        kind: "server",
        root: true,
        captureStackTrace: false,
        context: chosenForSampling,
        attributes: { "http.request.method": method, "http.route": route }
      }
    )

  return <E, R>(served: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const started = performance.now()
      const route = templateOf(request.method, request.url)
      const run = !tracing.enabled
        ? served
        : Math.random() < tracing.ratio
          ? traced(served, request.method, route)
          : Effect.withTracerEnabled(served, false)
      const observe = (status: number) =>
        requests.observe(
          { method: request.method, route, status: String(status) },
          (performance.now() - started) / 1000
        )
      return Effect.onExit(run, (exit) =>
        Exit.isInterrupted(exit)
          ? Effect.void
          : Exit.isSuccess(exit)
            ? Effect.sync(() => observe(exit.value.status))
            : Effect.map(failedStatus(exit.cause), observe)
      )
    })
}

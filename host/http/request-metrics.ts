/**
 * Each request's time and status by route template, for /api/metrics: a histogram labelled with the method, the path
 * template the router matched (never the path itself, whose ids would make a series per request; `(none)` when no
 * route matched) and the status answered. Timed around the whole app, so the status is the one the client gets after
 * every middleware turned a failure into its answer (a refusal's 4xx, a defect's 500), and the time runs to the
 * answer's head; a body still streaming is not waited for. A request whose client went away first is not counted.
 * The route matched is told outward through a cell each request carries, filled by the route's own wrapper.
 *
 * With tracing on (extensions/health/tracing.ts), each matched request is also a server span named by its method and
 * route, the root the spans of its work hang from, so a trace is sampled or not as a whole. With tracing off no span
 * is made.
 */
import type * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import type { NodeMetricsShape } from "../../kernel/metrics.ts"

/** From a millisecond (a session read from its cache) to ten seconds (a model's whole answer). */
const buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** The route a request matched, written by the route's wrapper and read when the app has answered. */
interface MatchedRoute {
  path: string
}
const MatchedRoute = Context.GenericTag<MatchedRoute>("host/http/MatchedRoute")

type Route<E, R> = Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>

/** The status the server answers for an app's exit (the same mapping host/http/server.ts writes). */
const answeredStatus = <E>(exit: Exit.Exit<HttpServerResponse.HttpServerResponse, E>) =>
  Exit.isSuccess(exit)
    ? Effect.succeed(exit.value.status)
    : Effect.map(HttpServerError.causeResponse(exit.cause), ([response]) => response.status)

/** Times the app and each route; built once with the node, when whether it traces is known. */
export const requestMetrics = (metrics: NodeMetricsShape) =>
  Effect.map(FiberRef.get(FiberRef.currentTracerEnabled), (tracing) => {
    const requests = metrics.histogram({
      name: "pos_http_request_duration_seconds",
      help: "Time from a request's arrival to its answer's head, by method, route template and status answered.",
      labelNames: ["method", "route", "status"],
      buckets
    })

    const app = <E, R>(served: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
      Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const started = performance.now()
        const matched: MatchedRoute = { path: "(none)" }
        return served.pipe(
          Effect.provideService(MatchedRoute, matched),
          Effect.onExit((exit) =>
            Exit.isInterrupted(exit)
              ? Effect.void
              : Effect.map(answeredStatus(exit), (status) =>
                  requests.observe(
                    { method: request.method, route: matched.path, status: String(status) },
                    (performance.now() - started) / 1000
                  )
                )
          )
        )
      })

    const traced = <E, R>(route: Route<E, R>, method: string, path: string): Route<E, R> =>
      Effect.withSpan(
        Effect.tap(route, (response) => Effect.annotateCurrentSpan("http.response.status_code", response.status)),
        `${method} ${path}`,
        { kind: "server", root: true, attributes: { "http.request.method": method, "http.route": path } }
      )

    const route = <E, R>(matchedRoute: Route<E, R>) =>
      Effect.flatMap(HttpRouter.RouteContext, ({ route: matched }) =>
        Effect.flatMap(Effect.serviceOption(MatchedRoute), (cell) => {
          if (cell._tag === "Some") cell.value.path = matched.path
          return tracing ? traced(matchedRoute, matched.method, matched.path) : matchedRoute
        })
      )

    return { app, route }
  })

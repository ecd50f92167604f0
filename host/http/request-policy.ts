/**
 * Every request is bounded before it is read. The policy runs inside each route the router
 * matched, so it knows the endpoint (its path template and its declarations in the contract,
 * kernel/contract/endpoint-policy.ts) however the path was spelled, and it runs before the route
 * reads a byte of the body (the contract decodes a payload lazily, after this). In order:
 *
 * - rate limits: the caller's global budget for /api routes, and the endpoint's rate class;
 * - a state-changing request from another site is refused (403 `forbidden_origin`), unless the
 *   endpoint is a signed wire route;
 * - a body must be of a media type the endpoint reads (415 `unsupported_media_type`);
 * - a body over the endpoint's limit is refused on its Content-Length, or counted as it arrives
 *   when it has none (413 `payload_too_large`, and the connection is closed);
 * - JSON nested deeper than 64 levels is refused (400) before anything recurses over it.
 *
 * `serve` stands in for HttpApiBuilder.serve: the same app, each route wrapped in the policy.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as NodeHttpServerRequest from "@effect/platform-node/NodeHttpServerRequest"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { declaredPolicy, type RateClassName } from "../../kernel/contract/endpoint-policy.ts"
import { Settings } from "../../kernel/settings.ts"
import { AuthSettings } from "../../extensions/accounts/settings.ts"
import { RateLimiter, type RateLimiterShape } from "../../kernel/http/rate-limit.ts"
import { refusalResponse } from "../../kernel/http/refusal-response.ts"
import { HealthSettings } from "../../extensions/health/settings.ts"
import { NodeMetrics } from "../../kernel/metrics.ts"
import { nestsDeeperThan, readBounded, withReadBody } from "./request-body.ts"
import { requestMetrics } from "./request-metrics.ts"
import { fromAnotherSite, type OriginPolicy } from "./same-origin.ts"

export interface RoutePolicy {
  readonly rateClass: RateClassName | null
  /** Classes the route counts in besides its own (their budgets only, not the global one again). */
  readonly alsoCountsIn?: ReadonlyArray<RateClassName>
  readonly bodyLimit: number
  /** Media types (`type/subtype`, lowercase) the route reads a body as. */
  readonly contentTypes: ReadonlyArray<string>
  readonly wire: boolean
}

export const MAX_JSON_DEPTH = 64

const JSON_TYPE = "application/json"

/** Methods that change nothing, so another site's page may send them. */
const safeMethods: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"])

const routeKey = (method: string, path: string) => `${method} ${path}`

/**
 * Each endpoint's policy, keyed as the router knows its route (method and path template). A
 * declared body limit is overridden by its setting when that is set.
 */
export const routePolicies = (api: HttpApi.HttpApi.Any, maxJsonBytes: number) =>
  Effect.gen(function* () {
    const declared: Array<{
      readonly key: string
      readonly policy: ReturnType<typeof declaredPolicy>
      readonly types: ReadonlyArray<string>
    }> = []
    HttpApi.reflect(api as HttpApi.HttpApi.AnyWithProps, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, mergedAnnotations, payloads }) => {
        declared.push({
          key: routeKey(endpoint.method, endpoint.path),
          policy: declaredPolicy(mergedAnnotations),
          types: [...payloads.keys()]
        })
      }
    })
    const policies = new Map<string, RoutePolicy>()
    for (const { key, policy, types } of declared) {
      const bodyLimit =
        policy.bodyLimit === null
          ? maxJsonBytes
          : (yield* Config.integer(policy.bodyLimit.setting).pipe(Config.withDefault(policy.bodyLimit.bytes))) +
            (policy.bodyLimit.allowance ?? 0)
      const contentTypes = policy.contentTypes ?? (types.length === 0 ? [JSON_TYPE] : types)
      policies.set(key, {
        rateClass: policy.rateClass,
        alsoCountsIn: policy.alsoCountsIn,
        bodyLimit,
        contentTypes: contentTypes.map((type) => type.toLowerCase()),
        wire: policy.wire
      })
    }
    return policies
  })

/** `type/subtype` of a Content-Type header, lowercase; null when there is none. */
const mediaType = (header: string | undefined): string | null => {
  const type = (header ?? "").split(";")[0]!.trim().toLowerCase()
  return type === "" ? null : type
}

export interface PolicyOptions {
  readonly policies: ReadonlyMap<string, RoutePolicy>
  /** What a route outside the contract (the UI, a file download) is held to. */
  readonly fallback: RoutePolicy
  readonly origin: OriginPolicy
  readonly limiter: RateLimiterShape
}

/** Counts the request in its budgets: the global one and its class's, then the classes it also counts in. */
const charge = (limiter: RateLimiterShape, request: HttpServerRequest.HttpServerRequest, policy: RoutePolicy) => {
  const first = limiter.charge(request, policy.rateClass)
  const also = policy.alsoCountsIn ?? []
  return also.length === 0
    ? first
    : Effect.zipRight(
        first,
        Effect.forEach(also, (rateClass) => limiter.charge(request, rateClass, { global: false }), { discard: true })
      )
}

/** What the policy checks once the rate limits let the request through: its origin, then its body. */
const checkedRequest = <E, R>(
  options: PolicyOptions,
  policy: RoutePolicy,
  request: HttpServerRequest.HttpServerRequest,
  route: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function* () {
    if (!policy.wire && fromAnotherSite(request.headers, options.origin)) {
      return refusalResponse(403, {
        error: "forbidden_origin",
        message:
          "A page from another site cannot make this request: it would act with your session. Use the node's own pages."
      })
    }

    const length = request.headers["content-length"]
    const hasBody = request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")
    if (!hasBody) return yield* route

    const type = mediaType(request.headers["content-type"])
    if (type === null || !policy.contentTypes.includes(type)) {
      return refusalResponse(415, {
        error: "unsupported_media_type",
        message: `This route reads a body of type ${policy.contentTypes.join(" or ")}; send it with that Content-Type.`,
        details: { accepted: policy.contentTypes, received: type }
      })
    }
    const tooLarge = {
      error: "payload_too_large",
      message: `The request body is larger than this route takes (at most ${policy.bodyLimit} bytes).`,
      details: { limitBytes: policy.bodyLimit }
    }
    if (length !== undefined && Number(length) > policy.bodyLimit) return refusalResponse(413, tooLarge)
    // Other media types (an upload's multipart) are streamed by the route itself, within the limit.
    if (type !== JSON_TYPE) return yield* HttpIncomingMessage.withMaxBodySize(route, Option.some(policy.bodyLimit))

    const read = yield* readBounded(NodeHttpServerRequest.toIncomingMessage(request), policy.bodyLimit)
    if (read._tag === "TooLarge") return refusalResponse(413, tooLarge)
    if (read._tag === "Broken")
      return refusalResponse(400, { error: "invalid_request", message: "The request body was cut off." })
    const text = read.bytes.toString("utf8")
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      return refusalResponse(400, {
        error: "invalid_request",
        message: `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`
      })
    }
    let json: unknown
    try {
      json = text === "" ? null : JSON.parse(text)
    } catch {
      return refusalResponse(400, {
        error: "invalid_request",
        message: "The request body could not be read as JSON."
      })
    }
    return yield* Effect.provideService(
      route,
      HttpServerRequest.HttpServerRequest,
      withReadBody(request, read.bytes, json)
    )
  })

type RouteContextOf = HttpServerRequest.HttpServerRequest | HttpRouter.RouteContext

/**
 * Wraps one matched route in the policy. Read once per request from the route's context (the request and the route the
 * router matched), and a safe method's request goes to its route after its rate limits in one step, since every
 * request of every route passes here.
 */
export const guardRoute =
  (options: PolicyOptions) =>
  <E, R>(route: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
    Effect.contextWithEffect((context: Context.Context<RouteContextOf>) => {
      const request = Context.get(context, HttpServerRequest.HttpServerRequest)
      const matched = Context.get(context, HttpRouter.RouteContext).route
      const policy = options.policies.get(routeKey(matched.method, matched.path)) ?? options.fallback
      const afterLimits = () =>
        safeMethods.has(request.method) ? route : checkedRequest(options, policy, request, route)
      if (!matched.path.startsWith("/api/")) return afterLimits()
      return Effect.matchEffect(charge(options.limiter, request, policy), {
        onFailure: (limited) => Effect.succeed(refusalResponse(429, limited)),
        onSuccess: afterLimits
      })
    })

/**
 * HttpApiBuilder.serve with every route wrapped in the policy and timed (request-metrics.ts): the contract's router,
 * taken from HttpApiBuilder's Router after the groups have added their routes, mapped route by route.
 */
export const serve = Layer.unwrapEffect(
  Effect.gen(function* () {
    const settings = yield* Settings
    const { api } = yield* HttpApi.Api
    const policies = yield* routePolicies(api, settings.maxJsonBytes)
    const guard = guardRoute({
      policies,
      fallback: { rateClass: null, bodyLimit: settings.maxJsonBytes, contentTypes: [JSON_TYPE], wire: false },
      origin: { publicUrl: settings.publicUrl, cookieDomain: (yield* AuthSettings).cookieDomain },
      limiter: yield* RateLimiter
    })
    const routes = yield* HttpApiBuilder.Router
    const app = yield* HttpApiBuilder.httpApp.pipe(
      Effect.provideService(HttpApiBuilder.Router, {
        ...routes,
        router: Effect.map(routes.router, HttpRouter.use(guard))
      })
    )
    const health = yield* HealthSettings
    const timed = requestMetrics(yield* NodeMetrics, yield* routes.router, {
      enabled: Option.isSome(health.otlpEndpoint),
      ratio: health.tracesSampleRatio
    })
    return HttpServer.serve(timed(app))
  })
).pipe(Layer.provide([HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer]))

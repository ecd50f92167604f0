/**
 * GET /api/metrics: the node's figures in Prometheus' text format (kernel/metrics.ts keeps them), for the owner's
 * session or a scraper's `Authorization: Bearer <METRICS_TOKEN>`. A raw route beside the contract: the answer is text
 * for Prometheus, not JSON. A token that is sent and wrong is refused even beside the owner's cookie, so a scraper
 * misconfigured is told so rather than served by whatever session the browser holds.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"
import { rawCaller } from "../accounts/contract/raw-caller.ts"
import { OwnerOnly } from "../accounts/contract/errors.ts"
import type { SessionLookup } from "../accounts/contract/session-lookup.ts"
import { answerRefusal, unauthorized } from "../../kernel/http/raw-route.ts"
import { refusalResponse } from "../../kernel/http/refusal-response.ts"
import { LiveConnections } from "../../kernel/live/live-connections.ts"
import { metricsContentType, NodeMetrics } from "../../kernel/metrics.ts"
import { HealthSettings } from "./settings.ts"

export const METRICS_PATH = "/api/metrics"

const digest = (text: string) => createHash("sha256").update(text).digest()

/** Compared as digests, in constant time, so the answer's timing says nothing of how much of a guess was right. */
const sameToken = (sent: string, token: Redacted.Redacted) =>
  timingSafeEqual(digest(sent), digest(Redacted.value(token)))

const wrongToken = refusalResponse(401, {
  error: "unauthorized",
  message:
    "This metrics token is not the node's: send the METRICS_TOKEN the node was started with, or sign in as the owner."
})

/** Who may read the figures: a scraper with the token, else the owner's session. Null when allowed. */
const refusal = Effect.gen(function* () {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { metricsToken } = yield* HealthSettings
  const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? "")?.[1]
  if (bearer !== undefined) {
    return Option.isSome(metricsToken) && sameToken(bearer, metricsToken.value) ? null : wrongToken
  }
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return unauthorized
  return caller.value.isOwner
    ? null
    : answerRefusal(
        new OwnerOnly({
          message: "Only the owner of this node (or a scraper with its METRICS_TOKEN) can read its metrics."
        })
      )
})

/** The open sockets of this process, read at each scrape. */
const liveSockets = Effect.gen(function* () {
  const live = yield* LiveConnections
  const metrics = yield* NodeMetrics
  metrics.gauge(
    { name: "pos_live_sockets", help: "Open live-channel sockets (/api/ws) of this process.", labelNames: [] },
    (gauge) => Effect.sync(() => gauge.set(live.counts().connections))
  )
  metrics.gauge(
    { name: "pos_live_beings", help: "Beings with at least one open socket on this process.", labelNames: [] },
    (gauge) => Effect.sync(() => gauge.set(live.counts().beings))
  )
})

export const metricsRoutes = Layer.unwrapEffect(
  Effect.gen(function* () {
    yield* liveSockets
    const context = yield* Effect.context<HealthSettings | SessionLookup>()
    const metrics = yield* NodeMetrics
    const serve = Effect.gen(function* () {
      const refused = yield* refusal
      if (refused !== null) return refused
      const text = yield* metrics.scrape
      return HttpServerResponse.text(text, {
        contentType: metricsContentType,
        headers: { "cache-control": "no-store" }
      })
    }).pipe(Effect.provide(context))
    return HttpApiBuilder.Router.use((router) => router.get(METRICS_PATH, serve))
  })
)

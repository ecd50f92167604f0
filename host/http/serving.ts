/**
 * The node serving HTTP: the contract's routes, each inside the request policy (request-policy.ts),
 * beside the features' raw routes and the built web app, on the node's own http.Server. The
 * features' handlers come from host/node.ts; this file is only how they are served.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fileURLToPath } from "node:url"
import { listeningUrl } from "../../kernel/origin.ts"
import { Settings } from "../../kernel/settings.ts"
import { TopicAccess } from "../../kernel/live/topic-access.ts"
import { NodeServer } from "../live/server.ts"
import { ApiErrorsLive } from "./api-errors.ts"
import { serve } from "./request-policy.ts"
import { sendSecurityHeaders } from "./security-headers.ts"
import { nodeHttpServerLayer } from "./server.ts"
import { uiFilesLayer } from "./ui-files.ts"

export const uiDistDir = fileURLToPath(new URL("../../ui/dist", import.meta.url))

/**
 * /api/openapi.json, the document derived from the contract at its first request and kept: the platform's
 * `middlewareOpenApi` derives it while the node starts, 100–170 ms of every start for a document few read.
 */
const openApiDocument = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const { api } = yield* HttpApi.Api
    const document = yield* Effect.cached(
      Effect.orDie(Effect.suspend(() => HttpServerResponse.json(OpenApi.fromApi(api))))
    )
    yield* router.get("/api/openapi.json", document)
  })
)

/**
 * The contract's routes (`api`: the HttpApi with every feature's handlers) and the raw routes
 * (bytes, redirects and pages a person navigates to), served with the OpenAPI document.
 */
export const servingLayer = <EA, RA, ER, RR>(
  uiDir: string,
  api: Layer.Layer<HttpApi.Api, EA, RA>,
  rawRoutes: Layer.Layer<never, ER, RR>
) =>
  serve.pipe(
    Layer.provide(openApiDocument),
    Layer.provide(ApiErrorsLive),
    Layer.provide(uiFilesLayer(uiDir)),
    Layer.provide(rawRoutes),
    Layer.provide(api),
    // Built over every feature, so every topic kind is claimed by now: sockets that subscribed early go on.
    Layer.tap(() => Effect.flatMap(TopicAccess, (topics) => topics.allClaimed))
  )

/**
 * Listening starts below the services, so they can know the address the node really got. The
 * http.Server is the node's own (live/server.ts) so the live channel, not the platform, takes every
 * WebSocket handshake; the HttpServer on it is ours too (server.ts: a fiber per request without the
 * platform's per-request pipeline).
 */
export const listenLayer = (onListening: ((url: string) => void) | undefined) =>
  Layer.unwrapEffect(
    Effect.gen(function* () {
      const settings = yield* Settings
      const server = yield* NodeServer
      server.prependListener("request", sendSecurityHeaders)
      const listening = nodeHttpServerLayer(server, { port: settings.port, host: settings.host })
      return onListening === undefined
        ? listening
        : Layer.tap(listening, (context) =>
            Effect.sync(() => onListening(listeningUrl(Context.get(context, HttpServer.HttpServer).address)))
          )
    })
  )

/**
 * The webhook route's handler: the raw body (what the signature covers) and the signature headers, handed to
 * TwinWebhooks.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SHARED_SECRET_HEADER, SIGNATURE_HEADER, TwinWebhooksApi } from "./contract/webhooks-api.ts"
import { TwinWebhooks } from "./webhooks.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { twinFeature } from "./feature.ts"

const header = (value: string | ReadonlyArray<string> | undefined) => (typeof value === "string" ? value : undefined)

export const TwinWebhooksHandlers = HttpApiBuilder.group(apiOf(TwinWebhooksApi), "twinWebhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* TwinWebhooks
    return handlers.handle("deliver", ({ path }) =>
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        // The request policy read the body within the route's limit: these are its exact bytes.
        const body = new Uint8Array(yield* Effect.orDie(request.arrayBuffer))
        return yield* webhooks.deliver({
          provider: path.provider,
          connectionId: path.connectionId,
          contentType: header(request.headers["content-type"]) ?? "application/json",
          body,
          signature: header(request.headers[SIGNATURE_HEADER]),
          sharedSecret: header(request.headers[SHARED_SECRET_HEADER])
        })
      })
    )
  })
).pipe(Layer.provide(twinFeature))

/**
 * The public inbound route of a webhook provider (ProviderAuth `webhook`; ours where the spec is
 * silent, docs/api.md "Webhooks"): another service posts JSON to
 * `/api/twin/webhooks/<provider>/<connectionId>`, signed for the being's connection. No session:
 * the signature (or the shared secret, by the provider's `verify`) is the credential, so the route
 * is exempt from the same-origin check, counts in the wire rate class and takes a small body.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { BodyLimit, RateClass, WireRoute } from "../../../kernel/contract/endpoint-policy.ts"
import { InvalidRequest, Unauthorized } from "../../../kernel/contract/errors.ts"
import { ConnectionProvider } from "./records.ts"

/** The largest delivery the route reads, and the setting that changes it (docs/operations.md). */
export const WEBHOOK_MAX_BYTES_SETTING = "WEBHOOK_MAX_BYTES"
export const DEFAULT_WEBHOOK_MAX_BYTES = 65_536

/** The header an `hmac-sha256` provider's sender signs with: `sha256=<hex of HMAC-SHA256(secret, raw body)>`. */
export const SIGNATURE_HEADER = "x-signature"
/** The header a `shared-secret` provider's sender repeats the secret in. */
export const SHARED_SECRET_HEADER = "x-webhook-secret"

export const WebhookPath = Schema.Struct({
  provider: ConnectionProvider,
  connectionId: Schema.String.pipe(Schema.maxLength(64))
})

/** A verified delivery: how many items the provider made of it, and how many were new memories. */
export const WebhookReceived = Schema.Struct({
  received: Schema.Int,
  remembered: Schema.Int
})
export type WebhookReceived = typeof WebhookReceived.Type

/** The route a webhook provider's connection is delivered to, as its descriptor's `auth.path` shows it. */
export const webhookPath = (provider: string) => `/api/twin/webhooks/${provider}/:connectionId`

export class TwinWebhooksApi extends HttpApiGroup.make("twinWebhooks")
  .annotate(
    OpenApi.Description,
    "Deliveries to a plugin provider with `webhook` auth. A wire route: no session, verified by the connection's " +
      "secret."
  )
  .add(
    HttpApiEndpoint.post("deliver", "/twin/webhooks/:provider/:connectionId")
      .annotate(OpenApi.Summary, "Deliver to a webhook provider")
      .annotate(
        OpenApi.Description,
        "A delivery for a connection of a plugin provider with `webhook` auth, verified by the connection's " +
          "secret (`X-Signature` HMAC-SHA256 or `X-Webhook-Secret`) and handed to the plugin; its items are stored " +
          "as a sync's. No session (a wire route). Refusals (nothing stored): 401 `invalid_signature` (also an " +
          "unknown connection), 400 `invalid_delivery`, 413, 415."
      )
      .setPath(WebhookPath)
      // Any JSON: what it means is the provider's to say, after the signature verifies.
      .setPayload(Schema.Unknown)
      .addSuccess(WebhookReceived)
      .addError(Unauthorized.schema)
      .addError(InvalidRequest.schema)
  )
  .annotate(WireRoute, true)
  .annotate(RateClass, "wire")
  .annotate(BodyLimit, { bytes: DEFAULT_WEBHOOK_MAX_BYTES, setting: WEBHOOK_MAX_BYTES_SETTING })
  .prefix("/api") {}

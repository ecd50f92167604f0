/**
 * The OAuth client routes (ours): the owner reads and sets, per plugin provider that connects
 * through OAuth 2.0, the client this node uses there. Owner only (a member is answered 403), in
 * the `owner` rate class; the PUT reads a small body. docs/api.md ("Connections") lists the refusals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { BodyLimit, RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  DEFAULT_OAUTH_CLIENT_MAX_BYTES,
  OAUTH_CLIENT_MAX_BYTES_SETTING,
  OAuthClientProviderParam,
  OAuthClientState,
  SetOAuthClient
} from "./oauth-clients.ts"

export class OAuthClientsApi extends HttpApiGroup.make("oauthClients")
  .annotate(
    OpenApi.Description,
    "The OAuth clients the node uses for plugin providers with oauth2 auth, set by the owner (or by the " +
      "environment). Owner only."
  )
  .add(
    HttpApiEndpoint.get("list", "/twin/oauth-clients")
      .annotate(OpenApi.Summary, "List OAuth clients")
      .annotate(
        OpenApi.Description,
        "Each oauth2 plugin provider's client id, whether a secret is set and where from; never a secret. Owner " +
          "only (403 `forbidden`)."
      )
      .addSuccess(Schema.Array(OAuthClientState))
      .addError(Forbidden.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.put("set", "/twin/oauth-clients/:provider")
      .annotate(OpenApi.Summary, "Set an OAuth client")
      .annotate(
        OpenApi.Description,
        "Sets the provider's client id and secret (sealed with ENCRYPTION_KEY). Owner only (403 `forbidden`); " +
          "rate class `owner`. Refusals: 404 `unknown_provider`, 409 `encryption_not_configured`, 400 " +
          "`invalid_request`, 413."
      )
      .setPath(OAuthClientProviderParam)
      .setPayload(SetOAuthClient)
      .addSuccess(OAuthClientState)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
      .annotate(BodyLimit, { bytes: DEFAULT_OAUTH_CLIENT_MAX_BYTES, setting: OAUTH_CLIENT_MAX_BYTES_SETTING })
  )
  .add(
    HttpApiEndpoint.del("remove", "/twin/oauth-clients/:provider")
      .annotate(OpenApi.Summary, "Remove an OAuth client")
      .annotate(
        OpenApi.Description,
        "Removes the client set in Settings (one from the environment still counts). Owner only (403 " +
          "`forbidden`); rate class `owner`. Refusals: 404 `unknown_provider`, 400 `invalid_request`."
      )
      .setPath(OAuthClientProviderParam)
      .addSuccess(OAuthClientState)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .annotate(RateClass, "owner")
  )
  .middleware(Authentication)
  .prefix("/api") {}

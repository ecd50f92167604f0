/**
 * The OAuth client routes (ours): the owner reads and sets, per plugin provider that connects
 * through OAuth 2.0, the client this node uses there. Owner only (a member is answered 403), in
 * the `owner` rate class; the PUT reads a small body. docs/api.md ("Connections") lists the refusals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
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
  .add(
    HttpApiEndpoint.get("list", "/twin/oauth-clients")
      .addSuccess(Schema.Array(OAuthClientState))
      .addError(Forbidden.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.put("set", "/twin/oauth-clients/:provider")
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
      .setPath(OAuthClientProviderParam)
      .addSuccess(OAuthClientState)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .annotate(RateClass, "owner")
  )
  .middleware(Authentication)
  .prefix("/api")
{}

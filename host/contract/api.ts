/**
 * The node's HTTP contract, declared once. Handlers (each domain's handlers.ts), the typed client
 * (ui/api/client.ts, tests) and /api/openapi.json all derive from `NodeApi`.
 * Every endpoint may also answer with the ApiErrors below: a bad body (400), a missing
 * session (401), a state-changing request from another site's page (403 `forbidden_origin`),
 * an unknown route (404), a body over its limit (413) or of a type the route does not read
 * (415), a rate limit (429). What each endpoint declares beyond its schemas (rate class, body
 * limit, content types, wire route) is in kernel/contract/endpoint-policy.ts.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as OpenApi from "@effect/platform/OpenApi"
import {
  Forbidden,
  InvalidRequest,
  NotFound,
  PayloadTooLarge,
  RateLimited,
  Unauthorized,
  UnsupportedMediaType
} from "../../kernel/contract/errors.ts"
import { AuthApi, AuthPublicApi } from "../../extensions/accounts/contract/api.ts"
import { DesktopApi } from "../../extensions/desktop/contract/api.ts"
import { HealthApi } from "../../extensions/health/contract/api.ts"
import { LlmApi } from "../../extensions/models/contract/api.ts"
import { PluginsApi } from "../../extensions/plugins/contract/api.ts"
import { ModulesApi } from "../../extensions/modules/contract/api.ts"
import { StudioSkillsApi } from "../../extensions/skills/contract/api.ts"
import { StudioAgentsApi } from "../../extensions/agents/contract/api.ts"
import { StudioGeneratorsApi } from "../../extensions/generators/contract/api.ts"
import { StudioProjectsApi } from "../../actors/project/contract/api.ts"
import { FilesApi } from "../../extensions/files/contract/api.ts"
import { TwinTimeApi } from "../../extensions/time/contract/api.ts"
import { TwinHushApi } from "../../extensions/time/contract/hush-api.ts"
import { TwinApi } from "../../extensions/twin/contract/api.ts"
import { MarketApi } from "../../extensions/market/contract/api.ts"
import { BeingsApi, ModerationApi, SoulsApi } from "../../extensions/souls/contract/api.ts"
import { ConnectionsApi } from "../../extensions/twin/contract/connections-api.ts"
import { OAuthClientsApi } from "../../extensions/twin/contract/oauth-clients-api.ts"
import { ThreadsApi } from "../../extensions/threads/contract/api.ts"
import { FederationApi, FederationWireApi } from "../../extensions/federation/contract/api.ts"
import { FederationSeedsApi, FederationSeedWireApi } from "../../extensions/federation/contract/seeds-api.ts"
import { ThemesApi } from "../../extensions/themes/contract/api.ts"
import { GroupsApi } from "../../extensions/groups/contract/api.ts"
import { VoiceApi } from "../../extensions/twin/voice/contract/api.ts"
import { TwinWebhooksApi } from "../../extensions/twin/contract/webhooks-api.ts"
import { SearchApi } from "../../extensions/search/contract/api.ts"
import { McpApi, McpClientsApi } from "../../extensions/mcp/contract/api.ts"
import { BackupsApi } from "../../extensions/backups/contract/api.ts"
import { ExportApi } from "../../extensions/backups/export/contract/api.ts"
import { TwinImportApi } from "../../extensions/backups/imports/contract/api.ts"
import { SetupRestoreApi } from "../../extensions/backups/contract/setup-api.ts"
import { PushApi } from "../../extensions/push/contract/api.ts"

export class NodeApi extends HttpApi.make("node")
  .add(AuthPublicApi)
  .add(AuthApi)
  .add(HealthApi)
  .add(PluginsApi)
  .add(ModulesApi)
  .add(StudioSkillsApi)
  .add(StudioAgentsApi)
  .add(StudioGeneratorsApi)
  .add(StudioProjectsApi)
  .add(DesktopApi)
  .add(LlmApi)
  .add(FilesApi)
  .add(TwinTimeApi)
  .add(TwinHushApi)
  .add(TwinApi)
  .add(MarketApi)
  .add(SoulsApi)
  .add(BeingsApi)
  .add(ModerationApi)
  .add(ConnectionsApi)
  .add(OAuthClientsApi)
  .add(ThreadsApi)
  .add(FederationApi)
  .add(FederationWireApi)
  .add(FederationSeedsApi)
  .add(FederationSeedWireApi)
  .add(ThemesApi)
  .add(GroupsApi)
  .add(VoiceApi)
  .add(TwinWebhooksApi)
  .add(SearchApi)
  .add(McpClientsApi)
  .add(McpApi)
  .add(BackupsApi)
  .add(ExportApi)
  .add(TwinImportApi)
  .add(SetupRestoreApi)
  .add(PushApi)
  .addError(InvalidRequest.schema)
  .addError(Unauthorized.schema)
  .addError(Forbidden.schema)
  .addError(NotFound.schema)
  .addError(PayloadTooLarge.schema)
  .addError(UnsupportedMediaType.schema)
  .addError(RateLimited.schema)
  .annotate(OpenApi.Title, "Personal OS node API")
  .annotate(
    OpenApi.Description,
    "The HTTP API of one self-hosted node: one owner, one database. Every route is under `/api` and speaks JSON " +
      "unless it says otherwise. A session is the `svc_session` cookie set by register or login; a route that " +
      "needs one answers 401 `unauthorized` without it, and an owner-only route answers 403 `forbidden` to anyone " +
      "else. Every refusal is an ApiError `{ error, message, details? }` whose `error` is a stable code (the list: " +
      "docs/api.md). Besides its own refusals, any route may answer 400 `invalid_request` (a body, path or query " +
      "that does not fit its schema), 403 `forbidden_origin` (a state-changing request from another site's page; " +
      "signed wire routes are exempt), 404 `not_found`, 413 `payload_too_large`, 415 `unsupported_media_type` " +
      "and 429 `rate_limited` (`Retry-After` says when to try again)."
  )
  // Each node has its own public URL (PUBLIC_URL, or the address it listens on) and serves this
  // document itself, so the server is the relative "/": a client resolves it against the URL it
  // read /api/openapi.json from (docs/decisions.md "The OpenAPI document's server").
  .annotate(OpenApi.Servers, [{ url: "/", description: "The node that serves this document" }]) {}

/**
 * The Connections routes (spec: "Connections"): the node's providers, and the caller's own
 * connections to them. Every route needs a session and touches only the caller's connections;
 * another being's is a 404. `GET` and `PATCH /api/connections/:id` are ours (the spec is silent).
 * docs/api.md ("Connections") lists the refusals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  ChatPairing,
  Connection,
  ConnectionIdParam,
  CreateConnection,
  ProviderDescriptor,
  UpdateConnection
} from "./connections.ts"

export class ConnectionsApi extends HttpApiGroup.make("connections")
  .annotate(
    OpenApi.Description,
    "The signed-in being's connections to outside providers (mail, chat, files, browser history, plugin " +
      "integrations) and the registry of providers. Secrets are sealed at rest and never answered."
  )
  .add(
    HttpApiEndpoint.get("providers", "/connections/providers")
      .annotate(OpenApi.Summary, "List providers")
      .annotate(
        OpenApi.Description,
        "The node's providers, built-in and from plugins, each with its auth, skills and whether it syncs. Any " +
          "session."
      )
      .addSuccess(Schema.Array(ProviderDescriptor))
  )
  .add(
    HttpApiEndpoint.get("list", "/connections")
      .annotate(OpenApi.Summary, "List connections")
      .annotate(OpenApi.Description, "The caller's connections, by provider; never a secret. Any session.")
      .addSuccess(Schema.Array(Connection))
  )
  .add(
    HttpApiEndpoint.get("chatPairing", "/connections/chat_a/pairing")
      .annotate(OpenApi.Summary, "The chat bridge's pairing")
      .annotate(
        OpenApi.Description,
        "The pairing code and bot of chat_a for the caller; `configured` false and nulls when no token resolves. " +
          "Any session; refuses nothing."
      )
      .addSuccess(ChatPairing)
  )
  .add(
    HttpApiEndpoint.post("create", "/connections")
      .annotate(OpenApi.Summary, "Connect a provider")
      .annotate(
        OpenApi.Description,
        "Connects the caller to a provider with its config; secret fields are sealed and never answered. Any " +
          "session. Refusals: 404 `unknown_provider` (`details.providers`), 400 `invalid_config`, 400 " +
          "`not_browser_history`, 409 `already_connected` (`details.connectionId`), 409 " +
          "`encryption_not_configured`."
      )
      .setPayload(CreateConnection)
      .addSuccess(Connection)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.get("get", "/connections/:id")
      .annotate(OpenApi.Summary, "Get a connection")
      .annotate(
        OpenApi.Description,
        "One of the caller's connections. Any session. Refusals: 404 `not_found` (also another being's)."
      )
      .setPath(ConnectionIdParam)
      .addSuccess(Connection)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.patch("update", "/connections/:id")
      .annotate(OpenApi.Summary, "Change a connection")
      .annotate(
        OpenApi.Description,
        "Changes the label and/or replaces the whole config (checked and sealed as on create). Any session, the " +
          "caller's own. Refusals: 404 `not_found`, 400 `invalid_config`, 409 `encryption_not_configured`."
      )
      .setPath(ConnectionIdParam)
      .setPayload(UpdateConnection)
      .addSuccess(Connection)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.del("remove", "/connections/:id")
      .annotate(OpenApi.Summary, "Remove a connection")
      .annotate(
        OpenApi.Description,
        "Removes the connection and its secret; what its syncs made stays. Any session, the caller's own. " +
          "Refusals: 404 `not_found`."
      )
      .setPath(ConnectionIdParam)
      .addSuccess(Ok)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}

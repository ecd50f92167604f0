/**
 * The Connections routes (spec: "Connections"): the node's providers, and the caller's own
 * connections to them. Every route needs a session and touches only the caller's connections;
 * another being's is a 404. `GET` and `PATCH /api/connections/:id` are ours (the spec is silent).
 * docs/api.md ("Connections") lists the refusals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { ChatPairing, Connection, ConnectionIdParam, CreateConnection, ProviderDescriptor, UpdateConnection } from "./connections.ts"

export class ConnectionsApi extends HttpApiGroup.make("connections")
  .add(HttpApiEndpoint.get("providers", "/connections/providers").addSuccess(Schema.Array(ProviderDescriptor)))
  .add(HttpApiEndpoint.get("list", "/connections").addSuccess(Schema.Array(Connection)))
  .add(HttpApiEndpoint.get("chatPairing", "/connections/chat_a/pairing").addSuccess(ChatPairing))
  .add(
    HttpApiEndpoint.post("create", "/connections")
      .setPayload(CreateConnection)
      .addSuccess(Connection)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(HttpApiEndpoint.get("get", "/connections/:id").setPath(ConnectionIdParam).addSuccess(Connection).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.patch("update", "/connections/:id")
      .setPath(ConnectionIdParam)
      .setPayload(UpdateConnection)
      .addSuccess(Connection)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(HttpApiEndpoint.del("remove", "/connections/:id").setPath(ConnectionIdParam).addSuccess(Ok).addError(NotFound.schema))
  .middleware(Authentication)
  .prefix("/api")
{}

/**
 * The node as an MCP server (docs/api.md "MCP"). `mcpClients`: a signed-in person mints a client for one of their
 * assistants with the grants they choose (the bearer token answered once), lists and revokes them. `mcp`: the
 * protocol's Streamable HTTP transport itself at `/api/mcp`, answered raw (JSON-RPC, not the contract's JSON), which
 * authenticates by `Authorization: Bearer <token>` only (a session cookie is ignored there) and counts in its own rate
 * class. Declared here so the request policy holds it to the same bounds as every route.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unauthorized } from "../../../kernel/contract/errors.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { McpClient, McpClientIdPath, MintedMcpClient, MintMcpClient } from "./records.ts"

export class McpClientsApi extends HttpApiGroup.make("mcpClients")
  .annotate(
    OpenApi.Description,
    "The caller's MCP clients: the assistants they let read and write their twin over `/api/mcp`, each with its grants."
  )
  .add(
    HttpApiEndpoint.post("mint", "/mcp/clients")
      .annotate(OpenApi.Summary, "Mint an MCP client")
      .annotate(
        OpenApi.Description,
        "A client of the caller's with the grants given; the answer carries its bearer token, shown this once (only a " +
          "digest is kept). Any session; rate class `owner`. Refusals: 400 `invalid_request` (an unknown grant, no " +
          "grant, no name), 409 `too_many_clients` (50 at once)."
      )
      .setPayload(MintMcpClient)
      .addSuccess(MintedMcpClient)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.get("list", "/mcp/clients")
      .annotate(OpenApi.Summary, "List MCP clients")
      .annotate(OpenApi.Description, "The caller's clients, newest first, without their tokens. Any session.")
      .addSuccess(Schema.Array(McpClient))
  )
  .add(
    HttpApiEndpoint.del("revoke", "/mcp/clients/:id")
      .annotate(OpenApi.Summary, "Revoke an MCP client")
      .annotate(
        OpenApi.Description,
        "Deletes the client: its token stops working at once, on every process of the node, and its open MCP sessions " +
          "end. Any session, the caller's own. Refusals: 404 `not_found` (also another's)."
      )
      .setPath(McpClientIdPath)
      .addSuccess(Ok)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}

export class McpApi extends HttpApiGroup.make("mcp")
  .annotate(
    OpenApi.Description,
    "The Model Context Protocol's Streamable HTTP transport (JSON-RPC 2.0), for an assistant holding a client's " +
      "bearer token. Sessions by `Mcp-Session-Id`."
  )
  .add(
    HttpApiEndpoint.post("message", "/mcp")
      .annotate(OpenApi.Summary, "Send MCP messages")
      .annotate(
        OpenApi.Description,
        "A JSON-RPC message or batch; `initialize` opens a session (its id in `Mcp-Session-Id`), every later one " +
          "names it. Answered as JSON-RPC. Needs `Authorization: Bearer <token>` (a cookie is ignored); rate class " +
          "`mcp`. Refusals: 401 `unauthorized` (no token, an unknown or revoked one), 403 `forbidden_origin` (an " +
          "`Origin` not the node's), 404 (a session not found: initialize again), 413, 415."
      )
      .setPayload(Schema.Unknown)
      .addSuccess(Schema.Unknown)
      .addError(Unauthorized.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("stream", "/mcp")
      .annotate(OpenApi.Summary, "Open the server's MCP stream")
      .annotate(
        OpenApi.Description,
        "The session's server-sent event stream, for what the server sends unasked. Same authentication and refusals " +
          "as the messages."
      )
      .addSuccess(Schema.Unknown)
      .addError(Unauthorized.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.del("end", "/mcp")
      .annotate(OpenApi.Summary, "End an MCP session")
      .annotate(OpenApi.Description, "Ends the session named by `Mcp-Session-Id`. Same authentication and refusals.")
      .addSuccess(Schema.Unknown)
      .addError(Unauthorized.schema)
      .addError(Forbidden.schema)
  )
  .annotate(RateClass, "mcp")
  .prefix("/api") {}

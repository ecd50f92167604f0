/**
 * The studio's agent routes. Edit is `PUT /api/studio/agents/:id` with a patch (the spec leaves
 * the id's place open). No body names a being, owner or id: a body with any field the schema does
 * not list is a 400.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Agent, AgentInput, AgentPatch, AgentSummary } from "./agent.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"

const AgentIdParam = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

export class StudioAgentsApi extends HttpApiGroup.make("studioAgents")
  .annotate(
    OpenApi.Description,
    "Agents: named cards (role, skills, model tier) a being owns and may share; a project's team is staffed from " +
      "them."
  )
  .add(
    HttpApiEndpoint.get("listAgents", "/studio/agents")
      .annotate(OpenApi.Summary, "List agents")
      .annotate(OpenApi.Description, "The caller's own agents and every public one, newest first. Any session.")
      .addSuccess(Schema.Array(AgentSummary))
  )
  .add(
    HttpApiEndpoint.post("createAgent", "/studio/agents")
      .annotate(OpenApi.Summary, "Create an agent")
      .annotate(
        OpenApi.Description,
        "Creates an agent card owned by the caller, worn by the caller's being of its persona. Any session. " +
          "Refusals: 400 `unknown_skill` (`details.names`), 400 `invalid_request`."
      )
      .setPayload(AgentInput)
      .addSuccess(Agent)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.get("getAgent", "/studio/agents/:id")
      .annotate(OpenApi.Summary, "Get an agent")
      .annotate(
        OpenApi.Description,
        "The caller's own agent or a public one. Any session. Refusals: 403 `forbidden` (another being's private " +
          "agent), 404 `not_found`."
      )
      .setPath(AgentIdParam)
      .addSuccess(Agent)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.put("editAgent", "/studio/agents/:id")
      .annotate(OpenApi.Summary, "Edit an agent")
      .annotate(
        OpenApi.Description,
        "Changes the fields given. The agent's owner only (403 `forbidden`, the world owner too). Refusals: 400 " +
          "`unknown_skill`, 404 `not_found`."
      )
      .setPath(AgentIdParam)
      .setPayload(AgentPatch)
      .addSuccess(Agent)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteAgent", "/studio/agents/:id")
      .annotate(OpenApi.Summary, "Delete an agent")
      .annotate(
        OpenApi.Description,
        "Deletes the agent; its being goes with it once it wears no other card. The agent's owner only (403 " +
          "`forbidden`). Refusals: 404 `not_found`."
      )
      .setPath(AgentIdParam)
      .addSuccess(Ok)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}

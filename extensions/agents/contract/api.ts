/**
 * The studio's agent routes. Edit is `PUT /api/studio/agents/:id` with a patch (the spec leaves
 * the id's place open). No body names a being, owner or id: a body with any field the schema does
 * not list is a 400.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Agent, AgentInput, AgentPatch, AgentSummary } from "./agent.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"

const AgentIdParam = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

export class StudioAgentsApi extends HttpApiGroup.make("studioAgents")
  .add(HttpApiEndpoint.get("listAgents", "/studio/agents").addSuccess(Schema.Array(AgentSummary)))
  .add(HttpApiEndpoint.post("createAgent", "/studio/agents").setPayload(AgentInput).addSuccess(Agent).addError(InvalidRequest.schema))
  .add(
    HttpApiEndpoint.get("getAgent", "/studio/agents/:id")
      .setPath(AgentIdParam)
      .addSuccess(Agent)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.put("editAgent", "/studio/agents/:id")
      .setPath(AgentIdParam)
      .setPayload(AgentPatch)
      .addSuccess(Agent)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteAgent", "/studio/agents/:id")
      .setPath(AgentIdParam)
      .addSuccess(Ok)
      .addError(NotFound.schema)
      .addError(Forbidden.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}

/**
 * The studio's skill routes: the registry with each skill's JSON Schemas, and invoking one by
 * hand. Invoking here counts as the caller's explicit approval of that exact call, so a
 * world-acting skill runs; a skill's own failure is a 200 with `ok: false`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { NotFound } from "../../../kernel/contract/errors.ts"
import { InvokeSkillRequest, InvokeSkillResult, SkillDef } from "../../../kernel/contract/skills.ts"
import { Authentication } from "../../accounts/contract/session.ts"

export class StudioSkillsApi extends HttpApiGroup.make("studioSkills")
  .annotate(
    OpenApi.Description,
    "The skills registered on the node (by built-ins and plugins) and calling one directly, as the signed-in " +
      "being."
  )
  .add(
    HttpApiEndpoint.get("listSkills", "/studio/skills")
      .annotate(OpenApi.Summary, "List skills")
      .annotate(
        OpenApi.Description,
        "Every registered skill in registration order with its family and its input and output JSON Schemas. Any " +
          "session."
      )
      .addSuccess(Schema.Array(SkillDef))
  )
  .add(
    HttpApiEndpoint.post("invokeSkill", "/studio/skills/invoke")
      .annotate(OpenApi.Summary, "Invoke a skill")
      .annotate(
        OpenApi.Description,
        "Runs a skill with the given input as the session's being, outside any project (its file root is the " +
          "caller's uploads); counts as the caller's approval, so a world-acting skill runs. The answer says " +
          "whether it succeeded. Any session. Refusals: 404 `unknown_skill` (`details.name`), 400 " +
          "`invalid_request`."
      )
      .setPayload(InvokeSkillRequest)
      .addSuccess(InvokeSkillResult)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}

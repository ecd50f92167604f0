/**
 * The studio's skill routes: the registry with each skill's JSON Schemas, and invoking one by
 * hand. Invoking here counts as the caller's explicit approval of that exact call, so a
 * world-acting skill runs; a skill's own failure is a 200 with `ok: false`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { NotFound } from "../../../kernel/contract/errors.ts"
import { InvokeSkillRequest, InvokeSkillResult, SkillDef } from "../../../kernel/contract/skills.ts"
import { Authentication } from "../../accounts/contract/session.ts"

export class StudioSkillsApi extends HttpApiGroup.make("studioSkills")
  .add(HttpApiEndpoint.get("listSkills", "/studio/skills").addSuccess(Schema.Array(SkillDef)))
  .add(
    HttpApiEndpoint.post("invokeSkill", "/studio/skills/invoke")
      .setPayload(InvokeSkillRequest)
      .addSuccess(InvokeSkillResult)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}

/**
 * The hush routes (docs/api.md "Twin: hush"): a being's own settings, "what did I miss" and
 * "why was I nudged". Every route needs a session and touches only the caller's own signals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import { HeldNudges, HushSettings, NudgeWhy, PutHush } from "../../../actors/being/contract/hush.ts"
import { NotFound } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { IdPath } from "./todos.ts"

export class TwinHushApi extends HttpApiGroup.make("twinHush")
  .add(HttpApiEndpoint.get("getHush", "/twin/hush").addSuccess(HushSettings))
  .add(HttpApiEndpoint.put("putHush", "/twin/hush").setPayload(PutHush).addSuccess(HushSettings))
  .add(HttpApiEndpoint.get("heldNudges", "/twin/hush/held").addSuccess(HeldNudges))
  .add(HttpApiEndpoint.get("nudgeWhy", "/twin/nudges/:id/why").setPath(IdPath).addSuccess(NudgeWhy).addError(NotFound.schema))
  .middleware(Authentication)
  .prefix("/api")
{}

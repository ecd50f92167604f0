/**
 * The hush routes (docs/api.md "Twin: hush"): a being's own settings, "what did I miss" and
 * "why was I nudged". Every route needs a session and touches only the caller's own signals.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { HeldNudges, HushSettings, NudgeWhy, PutHush } from "../../../actors/being/contract/hush.ts"
import { NotFound } from "../../../kernel/contract/errors.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { IdPath } from "./todos.ts"

export class TwinHushApi extends HttpApiGroup.make("twinHush")
  .annotate(
    OpenApi.Description,
    "Hush: how many proactive nudges reach the signed-in being and when (level, quiet hours, daily cap, mute), " +
      "and why a nudge was held or let through."
  )
  .add(
    HttpApiEndpoint.get("getHush", "/twin/hush")
      .annotate(OpenApi.Summary, "The hush settings")
      .annotate(OpenApi.Description, "The caller's nudge level, quiet hours, daily cap and mute. Any session.")
      .addSuccess(HushSettings)
  )
  .add(
    HttpApiEndpoint.put("putHush", "/twin/hush")
      .annotate(OpenApi.Summary, "Change the hush settings")
      .annotate(
        OpenApi.Description,
        "Changes the settings given; `muteHours` snoozes proactive nudges (0 lets through what the snooze held). " +
          "Any session. Refusals: 400 `invalid_request` (out of range)."
      )
      .setPayload(PutHush)
      .addSuccess(HushSettings)
  )
  .add(
    HttpApiEndpoint.get("heldNudges", "/twin/hush/held")
      .annotate(OpenApi.Summary, "The nudges held today")
      .annotate(
        OpenApi.Description,
        "The proactive nudges the gate held or refused since the caller's local midnight. Any session; no model " +
          "call."
      )
      .addSuccess(HeldNudges)
  )
  .add(
    HttpApiEndpoint.get("nudgeWhy", "/twin/nudges/:id/why")
      .annotate(OpenApi.Summary, "Why a nudge came")
      .annotate(
        OpenApi.Description,
        "What a nudge is based on and the gate's stamp (the rule that let it through or held it). Any session, " +
          "the caller's own nudges. Refusals: 404 `not_found`."
      )
      .setPath(IdPath)
      .addSuccess(NudgeWhy)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}

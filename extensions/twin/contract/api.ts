/**
 * The twin's routes: its memories (search by words and meaning, add, delete), profile, activity,
 * learning and status. Every route needs a session and only touches the caller's own twin:
 * another being's memory is a 404, as if it did not exist. docs/api.md ("Twin") says what the
 * spec leaves open.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { Conflict, Forbidden, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import {
  ActivityParams,
  Memory,
  MemoryIdParam,
  MemoryInput,
  MemorySearchParams,
  PreferencesPatch,
  Profile,
  ProfilePatch,
  LearnRequest,
  ReflectResult,
  SyncParams,
  SyncProviderParam,
  SyncStarted,
  TwinActivity,
  TwinEnv,
  TwinStatus
} from "./records.ts"
import { LearningState, LearningUpdate } from "./learning.ts"

export class TwinApi extends HttpApiGroup.make("twin")
  .add(
    HttpApiEndpoint.get("searchMemories", "/twin/memories")
      .setUrlParams(MemorySearchParams)
      .addSuccess(Schema.Array(Memory))
      .addError(InvalidRequest.schema)
  )
  .add(HttpApiEndpoint.post("createMemory", "/twin/memories").setPayload(MemoryInput).addSuccess(Memory).addError(InvalidRequest.schema))
  .add(
    HttpApiEndpoint.del("deleteMemory", "/twin/memories/:id")
      .setPath(MemoryIdParam)
      .addSuccess(Ok)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(HttpApiEndpoint.get("getProfile", "/twin/profile").addSuccess(Profile))
  .add(HttpApiEndpoint.patch("patchProfile", "/twin/profile").setPayload(ProfilePatch).addSuccess(Profile).addError(InvalidRequest.schema))
  .add(
    HttpApiEndpoint.patch("patchPreferences", "/twin/profile/preferences")
      .setPayload(PreferencesPatch)
      .addSuccess(Profile)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.get("listActivity", "/twin/activity")
      .setUrlParams(ActivityParams)
      .addSuccess(Schema.Array(TwinActivity))
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("learn", "/twin/learn")
      .setPayload(LearnRequest)
      .addSuccess(Schema.Array(Memory))
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
      .annotate(RateClass, "llm")
  )
  .add(
    HttpApiEndpoint.post("reflect", "/twin/reflect")
      .addSuccess(ReflectResult)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
      .annotate(RateClass, "llm")
  )
  .add(
    HttpApiEndpoint.post("sync", "/twin/sync/:provider")
      .setPath(SyncProviderParam)
      .setUrlParams(SyncParams)
      .addSuccess(SyncStarted)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(HttpApiEndpoint.get("getLearning", "/twin/learning").addSuccess(LearningState))
  .add(
    HttpApiEndpoint.put("putLearning", "/twin/learning")
      .setPayload(LearningUpdate)
      .addSuccess(LearningState)
      .addError(InvalidRequest.schema)
      .annotate(RateClass, "owner")
  )
  .add(HttpApiEndpoint.get("status", "/twin/status").addSuccess(TwinStatus))
  .add(HttpApiEndpoint.get("env", "/twin/env").addSuccess(TwinEnv))
  .middleware(Authentication)
  .prefix("/api")
{}

/**
 * The twin's routes: its memories (search by words and meaning, add, delete), profile, activity,
 * learning and status. Every route needs a session and only touches the caller's own twin:
 * another being's memory is a 404, as if it did not exist. docs/api.md ("Twin") says what the
 * spec leaves open.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
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
  .annotate(
    OpenApi.Description,
    "The signed-in being's digital twin: memories and their search, the profile, activity, learning and " +
      "reflection, provider syncs, status. Every route touches only the caller's own twin; another being's memory " +
      "is a 404."
  )
  .add(
    HttpApiEndpoint.get("searchMemories", "/twin/memories")
      .annotate(OpenApi.Summary, "Search memories")
      .annotate(
        OpenApi.Description,
        "The caller's memories ranked by words (FTS5) and meaning (the `embed` tier) fused, or the newest " +
          "without `q`; at most `limit` (1..100) after skipping `offset` (0..1,000,000) of them. The " +
          "`X-Memory-Search` header says `hybrid` or `words`. Any session."
      )
      .setUrlParams(MemorySearchParams)
      .addSuccess(Schema.Array(Memory))
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("createMemory", "/twin/memories")
      .annotate(OpenApi.Summary, "Add a memory")
      .annotate(
        OpenApi.Description,
        "Stores a memory in the caller's twin, always (a person adding by hand means it). Any session."
      )
      .setPayload(MemoryInput)
      .addSuccess(Memory)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteMemory", "/twin/memories/:id")
      .annotate(OpenApi.Summary, "Delete a memory")
      .annotate(
        OpenApi.Description,
        "Removes the memory, its word index entry and its vector. Any session. Refusals: 404 `not_found` (also " +
          "another being's)."
      )
      .setPath(MemoryIdParam)
      .addSuccess(Ok)
      .addError(InvalidRequest.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.get("getProfile", "/twin/profile")
      .annotate(OpenApi.Summary, "The twin's profile")
      .annotate(
        OpenApi.Description,
        "The caller's facts, goals, routines, preferences, tone and time zone. Any session."
      )
      .addSuccess(Profile)
  )
  .add(
    HttpApiEndpoint.patch("patchProfile", "/twin/profile")
      .annotate(OpenApi.Summary, "Change the profile")
      .annotate(
        OpenApi.Description,
        "Changes the sections given; `preferences` given here replaces them whole. Any session. Refusals: 400 " +
          "`invalid_request` (an unknown time zone, too many entries)."
      )
      .setPayload(ProfilePatch)
      .addSuccess(Profile)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.patch("patchPreferences", "/twin/profile/preferences")
      .annotate(OpenApi.Summary, "Set or remove preferences")
      .annotate(
        OpenApi.Description,
        "Sets each key given, or removes it when null; one bad key refuses the whole patch. Any session. " +
          "Refusals: 400 `invalid_request`."
      )
      .setPayload(PreferencesPatch)
      .addSuccess(Profile)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.get("listActivity", "/twin/activity")
      .annotate(OpenApi.Summary, "The twin's activity")
      .annotate(
        OpenApi.Description,
        "What the caller's twin did (learned, indexed, synced, thought), newest first, at most `limit` (1..200) " +
          "and `offset` (0..1,000,000) skipped. Any session."
      )
      .setUrlParams(ActivityParams)
      .addSuccess(Schema.Array(TwinActivity))
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("learn", "/twin/learn")
      .annotate(OpenApi.Summary, "Learn memories from text")
      .annotate(
        OpenApi.Description,
        "Asks the `cheap` tier which memories in the text are worth keeping and stores them (near-duplicates " +
          "skipped); answers the memories stored. Any session; rate class `llm`. Refusals (nothing stored): 503 " +
          "`models_unavailable`, 503 `model_reply_invalid`, 409 `spend_ceiling_reached`, 503 `model_failed`."
      )
      .setPayload(LearnRequest)
      .addSuccess(Schema.Array(Memory))
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
      .annotate(RateClass, "llm")
  )
  .add(
    HttpApiEndpoint.post("reflect", "/twin/reflect")
      .annotate(OpenApi.Summary, "Reflect now")
      .annotate(
        OpenApi.Description,
        "Runs a reflection pass over the caller's newest memories: a thought, insights raised as signals, widget " +
          "suggestions. Any session; rate class `llm`. Refusals: 503 `models_unavailable`, 409 " +
          "`spend_ceiling_reached`, 503 `model_failed`."
      )
      .addSuccess(ReflectResult)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
      .annotate(RateClass, "llm")
  )
  .add(
    HttpApiEndpoint.post("sync", "/twin/sync/:provider")
      .annotate(OpenApi.Summary, "Sync a provider")
      .annotate(
        OpenApi.Description,
        "Starts a sync of one provider (`files`, `browser`, `mail_a`, or a plugin's) for the caller in the " +
          "background. Refusals (before anything starts): 404 `unknown_provider` (`details.providers`), 403 " +
          "`forbidden` (files and browser: the owner only), 409 `files_not_configured`, 409 `sync_running`, 409 " +
          "`not_connected`, 409 `provider_not_configured`, 400 `invalid_path`, `not_a_folder`, " +
          "`not_browser_history`, `file_too_large`, 404 `not_found`."
      )
      .setPath(SyncProviderParam)
      .setUrlParams(SyncParams)
      .addSuccess(SyncStarted)
      .addError(InvalidRequest.schema)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.get("getLearning", "/twin/learning")
      .annotate(OpenApi.Summary, "The learning sources")
      .annotate(
        OpenApi.Description,
        "Which of the caller's sources (threads, chat, mail, files) the learning loop reads, and how many pieces " +
          "wait. Any session."
      )
      .addSuccess(LearningState)
  )
  .add(
    HttpApiEndpoint.put("putLearning", "/twin/learning")
      .annotate(OpenApi.Summary, "Switch learning sources")
      .annotate(
        OpenApi.Description,
        "Switches the sources given on or off; one switched off drops what it had queued. Any session (each " +
          "being its own twin); rate class `owner`. Refusals: 400 `invalid_request`."
      )
      .setPayload(LearningUpdate)
      .addSuccess(LearningState)
      .addError(InvalidRequest.schema)
      .annotate(RateClass, "owner")
  )
  .add(
    HttpApiEndpoint.get("status", "/twin/status")
      .annotate(OpenApi.Summary, "The twin's status")
      .annotate(
        OpenApi.Description,
        "Whether models are configured, the caller's counts, each syncing provider's state and hint, and " +
          "embedding coverage. Any session."
      )
      .addSuccess(TwinStatus)
  )
  .add(
    HttpApiEndpoint.get("env", "/twin/env")
      .annotate(OpenApi.Summary, "What the node offers the twin")
      .annotate(
        OpenApi.Description,
        "Whether FILES_ROOT (shown to the owner only), mail, chat pairing and models are configured. Any " + "session."
      )
      .addSuccess(TwinEnv)
  )
  .middleware(Authentication)
  .prefix("/api") {}

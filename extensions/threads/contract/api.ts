/**
 * The Threads routes of the spec, plus our way to open a direct thread (`POST /api/threads` with
 * `{ kind: 'direct', withBeingId }`). The caller is the session's being; a thread the caller is
 * not in reads as missing (404). Posting a message counts in the `llm` rate class: on a muse
 * thread it starts a reply on the standard tier; reading a message aloud spends on the speech tier,
 * so it counts in `llm` too. Codes in docs/api.md.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { Message, MessagePath, NewMessage, NewThread, Thread, ThreadListParams, ThreadPath } from "./records.ts"

export class ThreadsApi extends HttpApiGroup.make("threads")
  .annotate(
    OpenApi.Description,
    "Conversations: the Muse (the being's assistant), direct threads between beings and agent threads; their " +
      "messages, and reading a message aloud."
  )
  .add(
    HttpApiEndpoint.get("listThreads", "/threads")
      .annotate(OpenApi.Summary, "List threads")
      .annotate(
        OpenApi.Description,
        "The caller's threads of a `kind` (muse, direct, agent), newest activity first, paged by `limit` " +
          "(1..200, default 50) and `offset`; the caller's Muse thread is made first if it has none. Any session."
      )
      .setUrlParams(ThreadListParams)
      .addSuccess(Schema.Array(Thread))
  )
  .add(
    HttpApiEndpoint.get("getThread", "/threads/:id")
      .annotate(OpenApi.Summary, "Read a thread")
      .annotate(
        OpenApi.Description,
        "One thread the caller is in, as in the list (a page of the list may not hold it). Any session. " +
          "Refusals: 404 `thread_not_found`."
      )
      .setPath(ThreadPath)
      .addSuccess(Thread)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("openThread", "/threads")
      .annotate(OpenApi.Summary, "Open a thread")
      .annotate(
        OpenApi.Description,
        "A new Muse thread, or the direct thread the caller shares with another being (the existing one, or a " +
          "new one). Any session. Refusals: 400 `thread_with_self`, 404 `being_not_found`."
      )
      .setPayload(NewThread)
      .addSuccess(Thread)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.get("listMessages", "/threads/:id/messages")
      .annotate(OpenApi.Summary, "Read a thread's messages")
      .annotate(
        OpenApi.Description,
        "The newest 500 messages of a thread the caller is in, oldest first. Any session. Refusals: 404 " +
          "`thread_not_found`."
      )
      .setPath(ThreadPath)
      .addSuccess(Schema.Array(Message))
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("postMessage", "/threads/:id/messages")
      .annotate(OpenApi.Summary, "Post a message")
      .annotate(
        OpenApi.Description,
        "Stores the caller's message (with up to 8 of the caller's uploads attached); on a Muse thread the " +
          "Muse's reply follows. Any session; rate class `llm`. Refusals: 404 `thread_not_found`, 400 " +
          "`attachment_not_upload`, 404 `attachment_not_found`, 409 `thread_read_only`."
      )
      .setPath(ThreadPath)
      .setPayload(NewMessage)
      .annotate(RateClass, "llm")
      .addSuccess(Message)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
      .addError(Conflict.schema)
  )
  .add(
    // A message read aloud by the 'speech' tier: MP3 bytes, kept nowhere. Spends model budget, so class llm.
    HttpApiEndpoint.post("speakMessage", "/threads/:id/messages/:messageId/speech")
      .annotate(OpenApi.Summary, "Read a message aloud")
      .annotate(
        OpenApi.Description,
        "The message read aloud by the `speech` tier as `audio/mpeg`, stored nowhere (at most 4,096 characters; " +
          "`x-speech-cut` says it was cut). Any session in the thread; rate class `llm`. Refusals: 404 " +
          "`thread_not_found`, 404 `message_not_found`, 503 `models_unavailable`, 409 `spend_ceiling_reached`, 503 " +
          "`model_failed`."
      )
      .setPath(MessagePath)
      .annotate(RateClass, "llm")
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "audio/mpeg" }))
      .addError(NotFound.schema)
      .addError(Conflict.schema)
      .addError(Unavailable.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteThread", "/threads/:id")
      .annotate(OpenApi.Summary, "Leave a thread")
      .annotate(
        OpenApi.Description,
        "The thread is gone for the caller; a thread nobody is left in is deleted with its messages. Any " +
          "session. Refusals: 404 `thread_not_found`."
      )
      .setPath(ThreadPath)
      .addSuccess(Ok)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}

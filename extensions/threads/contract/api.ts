/**
 * The Threads routes of the spec, plus our way to open a direct thread (`POST /api/threads` with
 * `{ kind: 'direct', withBeingId }`). The caller is the session's being; a thread the caller is
 * not in reads as missing (404). Posting a message counts in the `llm` rate class: on a muse
 * thread it starts a reply on the standard tier; reading a message aloud spends on the speech tier,
 * so it counts in `llm` too. Codes in docs/api.md.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, InvalidRequest, NotFound, Unavailable } from "../../../kernel/contract/errors.ts"
import { Ok } from "../../accounts/contract/records.ts"
import { Authentication } from "../../accounts/contract/session.ts"
import { Message, MessagePath, NewMessage, NewThread, Thread, ThreadListParams, ThreadPath } from "./records.ts"

export class ThreadsApi extends HttpApiGroup.make("threads")
  .add(HttpApiEndpoint.get("listThreads", "/threads").setUrlParams(ThreadListParams).addSuccess(Schema.Array(Thread)))
  .add(
    HttpApiEndpoint.post("openThread", "/threads").setPayload(NewThread)
      .addSuccess(Thread).addError(NotFound.schema).addError(InvalidRequest.schema)
  )
  .add(HttpApiEndpoint.get("listMessages", "/threads/:id/messages").setPath(ThreadPath).addSuccess(Schema.Array(Message)).addError(NotFound.schema))
  .add(
    HttpApiEndpoint.post("postMessage", "/threads/:id/messages").setPath(ThreadPath).setPayload(NewMessage)
      .annotate(RateClass, "llm")
      .addSuccess(Message).addError(NotFound.schema).addError(InvalidRequest.schema).addError(Conflict.schema)
  )
  .add(
    // A message read aloud by the 'speech' tier: MP3 bytes, kept nowhere. Spends model budget, so class llm.
    HttpApiEndpoint.post("speakMessage", "/threads/:id/messages/:messageId/speech").setPath(MessagePath)
      .annotate(RateClass, "llm")
      .addSuccess(HttpApiSchema.Uint8Array({ contentType: "audio/mpeg" }))
      .addError(NotFound.schema).addError(Conflict.schema).addError(Unavailable.schema)
  )
  .add(HttpApiEndpoint.del("deleteThread", "/threads/:id").setPath(ThreadPath).addSuccess(Ok).addError(NotFound.schema))
  .middleware(Authentication)
  .prefix("/api")
{}

/**
 * The Threads routes of the spec, plus our way to open a direct thread (`POST /api/threads` with
 * `{ kind: 'direct', withBeingId }`). The caller is the session's being; a thread the caller is
 * not in reads as missing (404). Posting a message counts in the `llm` rate class: on a muse
 * thread it starts a reply on the standard tier. Codes in docs/api.md.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { Ok } from "../../../host/auth/contract/records.ts"
import { Authentication } from "../../../host/auth/contract/session.ts"
import { Message, NewMessage, NewThread, Thread, ThreadListParams, ThreadPath } from "./records.ts"

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
  .add(HttpApiEndpoint.del("deleteThread", "/threads/:id").setPath(ThreadPath).addSuccess(Ok).addError(NotFound.schema))
  .middleware(Authentication)
  .prefix("/api")
{}

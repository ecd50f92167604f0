/** Handlers of the threads' routes: the caller comes from the session, never from a body. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { Threads } from "./threads.ts"
import { ThreadSpeech } from "./thread-speech.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { ThreadsApi } from "./contract/api.ts"

export const ThreadsHandlers = HttpApiBuilder.group(apiOf(ThreadsApi), "threads", (handlers) =>
  Effect.gen(function* () {
    const threads = yield* Threads
    const speech = yield* ThreadSpeech
    const caller = Effect.map(CurrentSession, (session) => session.beingId)
    return handlers
      .handle("listThreads", ({ urlParams: { kind, ...page } }) =>
        Effect.flatMap(caller, (beingId) => threads.list(beingId, kind, page))
      )
      .handle("getThread", ({ path }) => Effect.flatMap(caller, (beingId) => threads.get(beingId, path.id)))
      .handle("openThread", ({ payload }) => Effect.flatMap(caller, (beingId) => threads.open(beingId, payload)))
      .handle("listMessages", ({ path }) => Effect.flatMap(caller, (beingId) => threads.read(beingId, path.id)))
      .handle("postMessage", ({ path, payload }) =>
        Effect.flatMap(caller, (beingId) => threads.post(beingId, path.id, payload))
      )
      .handle("speakMessage", ({ path }) =>
        Effect.flatMap(caller, (beingId) => speech.speak(beingId, path.id, path.messageId)).pipe(
          Effect.map((spoken) =>
            HttpServerResponse.uint8Array(spoken.audio, {
              contentType: spoken.mimeType,
              // The audio is the caller's and made for this request: no cache keeps it.
              headers: { "cache-control": "no-store", "x-speech-cut": spoken.cut ? "true" : "false" }
            })
          )
        )
      )
      .handle("deleteThread", ({ path }) => Effect.flatMap(caller, (beingId) => threads.remove(beingId, path.id)))
  })
)

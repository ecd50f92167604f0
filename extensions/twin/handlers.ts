/** Handlers of the twin routes: the caller is the session's being; the rules live in the twin's services. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { memoryInputDefaults, memorySearchHeader } from "./contract/records.ts"
import { Activity } from "./activity.ts"
import { Memories } from "./memories.ts"
import { Learning } from "./learning.ts"
import { LearningQueue } from "./learning-queue.ts"
import { Profiles } from "./profiles.ts"
import { Reflections } from "./reflection.ts"
import { TwinStatusService } from "./status.ts"
import { TwinSync } from "./sync.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { TwinApi } from "./contract/api.ts"

const caller = Effect.map(CurrentSession, (session) => session.beingId)

/** The body stays the spec's Memory[]; how it was ranked rides in a header. */
const sayMode = (mode: string) =>
  HttpApp.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setHeader(response, memorySearchHeader, mode))
  )

export const TwinHandlers = HttpApiBuilder.group(apiOf(TwinApi), "twin", (handlers) =>
  Effect.gen(function* () {
    const memories = yield* Memories
    const profiles = yield* Profiles
    const activity = yield* Activity
    const learning = yield* Learning
    const learningQueue = yield* LearningQueue
    const status = yield* TwinStatusService
    const reflections = yield* Reflections
    const sync = yield* TwinSync
    return handlers
      .handle("searchMemories", ({ urlParams }) =>
        Effect.gen(function* () {
          const result = yield* memories.search(yield* caller, urlParams)
          yield* sayMode(result.mode)
          return result.memories
        })
      )
      .handle("createMemory", ({ payload }) =>
        Effect.flatMap(caller, (beingId) =>
          memories.store(beingId, { ...memoryInputDefaults, ...payload }, { skipNearDuplicates: false })
        ).pipe(Effect.map((stored) => stored.memory!))
      )
      .handle("deleteMemory", ({ path }) =>
        Effect.flatMap(caller, (beingId) => memories.remove(beingId, path.id)).pipe(Effect.as({ ok: true } as const))
      )
      .handle("getProfile", () => Effect.flatMap(caller, profiles.get))
      .handle("patchProfile", ({ payload }) => Effect.flatMap(caller, (beingId) => profiles.patch(beingId, payload)))
      .handle("patchPreferences", ({ payload }) =>
        Effect.flatMap(caller, (beingId) => profiles.patchPreferences(beingId, payload))
      )
      .handle("listActivity", ({ urlParams }) => Effect.flatMap(caller, (beingId) => activity.list(beingId, urlParams)))
      .handle("learn", ({ payload }) => Effect.flatMap(caller, (beingId) => learning.learn(beingId, payload)))
      .handle("reflect", () => Effect.flatMap(caller, (beingId) => reflections.reflect(beingId, { force: true })))
      .handle("sync", ({ path, urlParams }) =>
        Effect.flatMap(CurrentSession, (session) => sync.start(session, path.provider, urlParams))
      )
      .handle("getLearning", () => Effect.flatMap(caller, learningQueue.state))
      .handle("putLearning", ({ payload }) =>
        Effect.flatMap(caller, (beingId) => learningQueue.update(beingId, payload))
      )
      .handle("status", () => Effect.flatMap(CurrentSession, status.status))
      .handle("env", () => Effect.flatMap(CurrentSession, status.env))
  })
)

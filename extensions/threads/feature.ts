/**
 * Threads and the Muse as the node lists them (with the agent threads a project's run writes its notes to): the
 * services with their ports bound (beings'
 * names from the accounts, attachments from the caller's uploads (extensions/threads/attachments.ts:
 * named, and read for the Muse), the Muse's context; the federation's outbox for a conversation's
 * thread and the twin's learning queue come from the node), and the topic kind `thread` claimed: only a thread's
 * participants
 * follow it, and a socket that starts
 * following mid-reply is sent the reply so far first (extensions/threads/replay.ts).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ThreadBeings } from "./ports.ts"
import { makeThreadReplay } from "./replay.ts"
import { Threads } from "./threads.ts"
import { MuseChat } from "./contract/muse-chat.ts"
import { ThreadSpeech } from "./thread-speech.ts"
import { BeingRegistry } from "../accounts/contract/being-registry.ts"
import { TopicAccess } from "../../kernel/live/topic-access.ts"
import { ThreadAttachmentsLive } from "./attachments.ts"
import { MuseContextLive } from "./muse-context.ts"
import { AgentThreadsLive } from "./agent-threads.ts"
import { ThreadsHandlers } from "./handlers.ts"

const ThreadBeingsLive = Layer.effect(
  ThreadBeings,
  Effect.map(BeingRegistry, (repository) => ({
    find: (id: string) =>
      Effect.map(
        repository.findPublic(id),
        Option.map((being) => ({ id: being.id, displayName: being.displayName }))
      ),
    findMany: (ids: ReadonlyArray<string>) =>
      Effect.map(repository.findPublicMany(ids), (found) =>
        found.map((being) => ({ id: being.id, displayName: being.displayName }))
      )
  }))
)

/** Claims `thread:<id>` for the threads' participants, with the replay of the reply streaming on it. */
const ThreadTopicLive = Layer.effectDiscard(
  Effect.gen(function* () {
    const topics = yield* TopicAccess
    const threads = yield* Threads
    yield* topics.register("thread", (beingId, id) => threads.follows(beingId, id), makeThreadReplay())
  })
)

/** The composer's path to the Muse, for another channel to carry (contract/muse-chat.ts). */
const MuseChatLive = Layer.effect(
  MuseChat,
  Effect.map(Threads, (threads) => ({ ask: threads.askMuse }))
)

export const threadsFeature = Layer.mergeAll(ThreadTopicLive, MuseChatLive, AgentThreadsLive).pipe(
  Layer.provideMerge(ThreadSpeech.Default),
  Layer.provideMerge(Threads.Default),
  Layer.provide(Layer.mergeAll(ThreadBeingsLive, ThreadAttachmentsLive, MuseContextLive))
)

/** The threads' routes over the same layer value the node lists, so it is built once. */
export const threadsRoutes = ThreadsHandlers.pipe(Layer.provide(threadsFeature))

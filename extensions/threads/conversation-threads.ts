/**
 * The conversations' local halves bound to the threads' own tables: a direct thread whose one
 * participant here is the local being (the remote being has no being row, so it is no
 * participant), and a remote being's message stored with its did as the author. Writes only:
 * the federation tells the thread's followers once its transaction committed.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ConversationThreads } from "../federation/contract/ports.ts"
import type { Message } from "./contract/records.ts"
import { newId } from "./ids.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { ThreadsRepository } from "./repositories/threads-repository.ts"
import { nowIso } from "../../kernel/time.ts"

export const ConversationThreadsLive = Layer.effect(
  ConversationThreads,
  Effect.gen(function* () {
    const threads = yield* ThreadsRepository
    const messages = yield* MessagesRepository
    return {
      open: (beingId, title) =>
        Effect.gen(function* () {
          const thread = { id: yield* newId, kind: "direct" as const, title, createdAt: yield* nowIso }
          yield* threads.insert({ thread, participants: [beingId] })
          return thread.id
        }),
      insert: ({ threadId, authorDid, content }) =>
        Effect.gen(function* () {
          const message: Message = {
            id: yield* newId,
            threadId,
            role: "user",
            authorId: authorDid,
            content,
            attachments: [],
            toolCalls: [],
            createdAt: yield* nowIso
          }
          yield* messages.insert(message)
          return message
        })
    }
  })
).pipe(Layer.provide([ThreadsRepository.Default, MessagesRepository.Default]))

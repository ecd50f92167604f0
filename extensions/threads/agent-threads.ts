/**
 * Agent threads: one per studio project, for the project's owner, titled after the project. The
 * project's run writes to it as it goes (the plan, each task finished or failed, the review's
 * verdict, a call waiting for approval), through its own steps, never the model: the notes are
 * the run's words about what its agents did. Nobody answers in it (replyPolicy `none`), so a
 * message posted to it is refused (threads.ts). Each note is `message.created` on `thread:<id>`
 * and `thread.updated` to the owner's tabs, as any message is.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { EventBus } from "../../kernel/events.ts"
import { nowIso } from "../../kernel/time.ts"
import { spanNamed } from "../../kernel/spans.ts"
import { AgentThreads, type AgentNote, type AgentThreadsShape } from "./contract/agent-threads.ts"
import { MAX_MESSAGE_CHARS, type Message, type Thread } from "./contract/records.ts"
import { newId } from "./ids.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { ThreadsRepository } from "./repositories/threads-repository.ts"
import { PREVIEW, replyPolicyOf } from "./thread-view.ts"

const inNoteSpan = spanNamed("threads.agentNote")

/** The project's thread id: known from the project alone, so no table maps one to the other. */
export const agentThreadId = (projectId: string) => `agent-${projectId}`

/** The threads' `AgentThreads` (contract/agent-threads.ts). */
export const AgentThreadsLive = Layer.effect(
  AgentThreads,
  Effect.gen(function* () {
    const threads = yield* ThreadsRepository
    const messages = yield* MessagesRepository
    const bus = yield* EventBus

    /**
     * The note in the project's thread: one statement once the thread is there (the message, with the thread's title
     * and whether the owner is still in it); the first note makes the thread.
     */
    const post = (note: AgentNote) =>
      Effect.gen(function* () {
        const threadId = agentThreadId(note.projectId)
        const at = yield* nowIso
        const message: Message = {
          id: yield* newId,
          threadId,
          role: "assistant",
          authorId: null,
          content: note.content.slice(0, MAX_MESSAGE_CHARS),
          attachments: [],
          toolCalls: [],
          createdAt: at
        }
        const added = yield* messages.insertIntoExisting({ message, beingId: note.ownerId })
        if (Option.isNone(added)) {
          yield* threads.ensure({
            thread: { id: threadId, kind: "agent", title: note.projectTitle.slice(0, 200), createdAt: at },
            participants: [note.ownerId]
          })
          yield* messages.insert(message)
        }
        yield* bus.publish({ kind: "topic", topic: `thread:${threadId}` }, { type: "message.created", message })
        const row: Option.Option<{ readonly title: string; readonly createdAt: string }> = Option.isSome(added)
          ? Option.filter(added, ({ member }) => member > 0)
          : yield* threads.findFor({ threadId, beingId: note.ownerId })
        // The owner may have deleted the thread meanwhile: then only the topic hears it.
        if (Option.isNone(row)) return
        const thread: Thread = {
          id: threadId,
          kind: "agent",
          title: row.value.title,
          participants: [note.ownerId],
          replyPolicy: replyPolicyOf("agent"),
          preview: message.content.slice(0, PREVIEW),
          lastMessageAt: message.createdAt,
          createdAt: row.value.createdAt
        }
        yield* bus.publish({ kind: "being", beingId: note.ownerId }, { type: "thread.updated", thread })
      }).pipe(inNoteSpan)

    return { post } satisfies AgentThreadsShape
  })
).pipe(Layer.provide(Layer.mergeAll(ThreadsRepository.Default, MessagesRepository.Default)))

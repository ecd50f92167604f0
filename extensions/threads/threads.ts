/**
 * Threads: the inbox across kinds, opening one, its messages, posting, leaving. A being's muse
 * thread is made the first time it lists its threads (the inbox or `?kind=muse`) or asks the Muse
 * through `askMuse`, titled with the Muse's chosen name. A direct thread joins two beings; opening
 * it again answers the one they share. Agents' threads are listed with the rest (a project's run
 * writes them, agent-threads.ts). Every operation is for the caller from the session: a thread the caller is
 * not in, or has left, is missing. What a being writes to its own Muse (and nothing else) is handed
 * to its twin to learn from (the ThreadLearning port).
 *
 * A message to the Muse starts its reply as soon as it is stored and told on the thread's topic; the
 * inbox's `thread.updated` and the twin's learning follow beside the reply, once it has gone as far
 * as it can without waiting (its reads, its request to the model), so they do not delay its first
 * word (docs/decisions.md "The Muse's reply before the inbox and the learning").
 */
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import {
  MessageNotFound,
  ThreadBeingNotFound,
  ThreadNotFound,
  ThreadReadOnly,
  ThreadWithSelf
} from "./contract/errors.ts"
import type { Page } from "../../kernel/contract/page.ts"
import { nowIso } from "../../kernel/time.ts"
import { EventBus } from "../../kernel/events.ts"
import { MESSAGES_PAGE, type Message, type NewMessage, type NewThread, type ThreadKind } from "./contract/records.ts"
import { newId } from "./ids.ts"
import { Muse } from "./muse.ts"
import { MuseContext, ThreadAttachments, ThreadBeings, ThreadLearning, ThreadOutbound } from "./ports.ts"
import { MessagesRepository } from "./repositories/messages-repository.ts"
import { makeThreadView, replyPolicyOf } from "./thread-view.ts"
import { ThreadsRepository, type StoredThread } from "./repositories/threads-repository.ts"
import { spanNamed } from "../../kernel/spans.ts"

/** Resumes after the event loop's current turn: what was started in it runs first, as far as it goes without waiting. */
const afterThisTurn = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * The thread as it stands with `message` stored, from the post's own read of it, where that read says so exactly: the
 * message is later than the newest before it. At the same millisecond (ids break that tie, and the newest's id was not
 * read), none: the announce reads the thread. A muse thread's announce waits past the reply's start, and reads it.
 */
const withNewest = (thread: StoredThread, message: Message): StoredThread | undefined =>
  thread.lastMessageAt === null || Date.parse(message.createdAt) > Date.parse(thread.lastMessageAt)
    ? { ...thread, lastContent: message.content, lastMessageAt: message.createdAt }
    : undefined

const missing = (id: string) =>
  new ThreadNotFound({ message: "There is no thread with that id among yours.", details: { id } })

export class Threads extends Effect.Service<Threads>()("threads/Threads", {
  dependencies: [ThreadsRepository.Default, MessagesRepository.Default, Muse.Default],
  scoped: Effect.gen(function* () {
    const threads = yield* ThreadsRepository
    const messages = yield* MessagesRepository
    const muse = yield* Muse
    const bus = yield* EventBus
    const context = yield* MuseContext
    const beings = yield* ThreadBeings
    const attachments = yield* ThreadAttachments
    const { view, viewAll, announce } = yield* makeThreadView
    const outbound = yield* Effect.serviceOption(ThreadOutbound)
    const learning = yield* Effect.serviceOption(ThreadLearning)
    /** Work that follows a Muse reply's start (the node's shutdown interrupts it). */
    const besideReplies = yield* FiberSet.make()
    /** The being's own message to its Muse, handed to its twin to learn from (muse threads have no other writer). */
    const heard = (beingId: string, source: "thread" | "chat", message: Message) =>
      Option.isSome(learning) ? learning.value.heard(beingId, source, message) : Effect.void

    const create = (kind: ThreadKind, title: string, participants: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        const thread = { id: yield* newId, kind, title, createdAt: yield* nowIso }
        yield* threads.insert({ thread, participants })
        return { ...thread, lastContent: null, lastMessageAt: null } satisfies StoredThread
      })

    const createMuseThread = (beingId: string) =>
      Effect.flatMap(context.museName(beingId), (name) => create("muse", name, [beingId]))

    /** The being's newest muse thread, made now if it has none. */
    const museThread = (beingId: string) =>
      Effect.gen(function* () {
        const [newest] = yield* threads.listFor({ beingId, kind: "muse", limit: 1, offset: 0 })
        return newest ?? (yield* createMuseThread(beingId))
      })

    /** A page of the being's threads (of a kind), newest activity first; its muse thread made first if it has none. */
    const list = (beingId: string, kind: ThreadKind | undefined, page: Page) =>
      Effect.gen(function* () {
        if (kind === undefined || kind === "muse") yield* museThread(beingId)
        const rows = yield* threads.listFor({ beingId, kind: kind ?? null, ...page })
        return yield* viewAll(rows, beingId)
      }).pipe(spanNamed("threads.list"))

    const open = (beingId: string, request: NewThread) =>
      Effect.gen(function* () {
        if (request.kind === "muse") return yield* view(yield* createMuseThread(beingId), beingId)
        const otherId = request.withBeingId
        if (otherId === beingId) {
          return yield* new ThreadWithSelf({
            message: "A direct thread is with another being; pick someone else."
          })
        }
        const other = yield* beings.find(otherId)
        if (Option.isNone(other)) {
          return yield* new ThreadBeingNotFound({
            message: "There is no being with that id.",
            details: { withBeingId: otherId }
          })
        }
        const existing = yield* threads.findDirect({ beingId, otherId })
        const row = Option.isSome(existing)
          ? Option.getOrThrow(yield* threads.findFor({ threadId: existing.value.id, beingId }))
          : yield* create("direct", other.value.displayName, [beingId, otherId])
        // The other being's inbox gains the new thread at once, before anything is written in it.
        if (Option.isNone(existing)) yield* announce(row.id, { only: [otherId] })
        return yield* view(row, beingId)
      }).pipe(spanNamed("threads.open"))

    const mine = (beingId: string, threadId: string) =>
      Effect.flatMap(
        threads.findFor({ threadId, beingId }),
        Option.match({
          onNone: () => Effect.fail(missing(threadId)),
          onSome: Effect.succeed
        })
      )

    /** One of the being's threads as it sees it. */
    const get = (beingId: string, threadId: string) =>
      Effect.flatMap(mine(beingId, threadId), (row) => view(row, beingId)).pipe(spanNamed("threads.get"))

    const read = (beingId: string, threadId: string) =>
      Effect.gen(function* () {
        yield* mine(beingId, threadId)
        return yield* messages.recent({ threadId, limit: MESSAGES_PAGE })
      }).pipe(spanNamed("threads.messages"))

    /** Stores the message and tells the thread's topic; its participants' inboxes are told by `announce`. */
    const append = (beingId: string, thread: StoredThread, content: string, files: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        if (replyPolicyOf(thread.kind) === "none") {
          return yield* new ThreadReadOnly({
            message: "Nobody answers in this thread; it can be read, not written to."
          })
        }
        const attached = yield* attachments.resolve(beingId, files)
        const message: Message = {
          id: yield* newId,
          threadId: thread.id,
          role: "user",
          authorId: beingId,
          content,
          attachments: attached,
          toolCalls: [],
          createdAt: yield* nowIso
        }
        yield* messages.insert(message)
        yield* bus.publish({ kind: "topic", topic: `thread:${thread.id}` }, { type: "message.created", message })
        return message
      })

    /** Stores the message; on a muse thread starts the reply, then tells the inboxes and the twin beside it. */
    const post = (beingId: string, threadId: string, request: NewMessage) =>
      Effect.gen(function* () {
        const thread = yield* mine(beingId, threadId)
        const message = yield* append(beingId, thread, request.content, request.attachments ?? [])
        if (thread.kind === "muse") {
          yield* muse.start(thread.id, beingId)
          const told = Effect.zipRight(announce(thread.id), heard(beingId, "thread", message)).pipe(
            Effect.catchAllCause((cause) =>
              Effect.logWarning("A message to the Muse was stored, but telling the inbox or the twin failed", cause)
            )
          )
          yield* FiberSet.run(besideReplies, Effect.zipRight(afterThisTurn, told))
          // The reply's fiber, started above, runs before this answer is encoded and written, as far as it goes
          // without waiting: its round begun and its first reads (SQLite does not wait) come before the answer, not
          // after it (docs/decisions.md "The Muse's reply before the POST's answer").
          yield* Effect.yieldNow()
          return message
        }
        yield* announce(thread.id, { row: withNewest(thread, message) })
        if (thread.kind === "direct" && Option.isSome(outbound)) yield* outbound.value.posted(message)
        return message
      }).pipe(spanNamed("threads.post"))

    /**
     * The chat bridge's way in: the text as the being's message in its muse thread (made if it has
     * none), answered by the same reply path as the web composer; waits for that reply, which may be
     * made on another process of the node.
     */
    const askMuse = (beingId: string, content: string) =>
      Effect.gen(function* () {
        const thread = yield* museThread(beingId)
        const post = Effect.flatMap(append(beingId, thread, content, []), (message) =>
          Effect.zipRight(announce(thread.id), heard(beingId, "chat", message))
        )
        return yield* muse.nextReply(thread.id, beingId, post)
      }).pipe(Effect.orDie, spanNamed("muse.ask"))

    const remove = (beingId: string, threadId: string) =>
      Effect.gen(function* () {
        yield* mine(beingId, threadId)
        yield* threads.leave({ threadId, beingId, at: yield* nowIso })
        return { ok: true as const }
      }).pipe(spanNamed("threads.delete"))

    /** Whether the being may follow `thread:<id>`: it is in the thread. */
    const follows = (beingId: string, threadId: string) =>
      Effect.map(threads.findFor({ threadId, beingId }), Option.isSome)

    /** A message of one of the caller's threads, found for reading aloud (thread-speech.ts). */
    const message = (beingId: string, threadId: string, messageId: string) =>
      Effect.gen(function* () {
        yield* mine(beingId, threadId)
        const found = yield* messages.find({ threadId, messageId })
        if (Option.isNone(found)) {
          return yield* new MessageNotFound({
            message: "There is no message with that id in this thread.",
            details: { messageId }
          })
        }
        return found.value
      })

    return { list, get, open, read, post, askMuse, remove, follows, message } as const
  })
}) {}

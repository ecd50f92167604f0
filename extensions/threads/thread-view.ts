/**
 * A thread as one of its beings sees it, and `thread.updated` to each of them: a muse thread is
 * titled with the Muse's name now, a direct one with the other being's name, so each participant
 * gets its own view. Told after every stored message (the being's, the other's, the Muse's reply)
 * and when a direct thread is opened with someone, so an inbox updates without the thread being
 * open; the thread's own topic still carries the messages themselves.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { EventBus } from "../../kernel/events.ts"
import type { ReplyPolicy, Thread, ThreadKind } from "./contract/records.ts"
import { MuseContext, ThreadBeings } from "./ports.ts"
import { ThreadsRepository, type StoredThread } from "./repositories/threads-repository.ts"

export const PREVIEW = 140

export const replyPolicyOf = (kind: ThreadKind): ReplyPolicy =>
  kind === "muse" ? "muse" : kind === "direct" ? "being" : "none"

export const makeThreadView = Effect.gen(function* () {
  const threads = yield* ThreadsRepository
  const context = yield* MuseContext
  const beings = yield* ThreadBeings
  const bus = yield* EventBus

  /** The thread as `viewerId` sees it; `participants` when the caller read them already (a list reads them at once). */
  const view = (row: StoredThread, viewerId: string, known?: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const participants = known ?? (yield* threads.participants(row.id)).map((member) => member.beingId)
      const other = participants.find((id) => id !== viewerId)
      const title =
        row.kind === "muse"
          ? yield* context.museName(viewerId)
          : row.kind === "direct" && other !== undefined
            ? Option.match(yield* beings.find(other), { onNone: () => row.title, onSome: (being) => being.displayName })
            : row.title
      const thread: Thread = {
        id: row.id,
        kind: row.kind,
        title,
        participants: [...participants],
        replyPolicy: replyPolicyOf(row.kind),
        preview: row.lastContent === null ? null : row.lastContent.slice(0, PREVIEW),
        lastMessageAt: row.lastMessageAt,
        createdAt: row.createdAt
      }
      return thread
    })

  /** `thread.updated` to every being still in the thread, each with its own view; `only` narrows it to some of them. */
  const announce = (threadId: string, only?: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const members = (yield* threads.participants(threadId)).map((member) => member.beingId)
      yield* Effect.forEach(
        members.filter((id) => only === undefined || only.includes(id)),
        (beingId) =>
          Effect.flatMap(
            threads.findFor({ threadId, beingId }),
            Option.match({
              onNone: () => Effect.void,
              onSome: (row) =>
                Effect.flatMap(view(row, beingId), (thread) =>
                  bus.publish({ kind: "being", beingId }, { type: "thread.updated", thread })
                )
            })
          )
      )
    }).pipe(Effect.withSpan("threads.announce"))

  /** Many threads as `viewerId` sees them: their participants in one statement, not one a thread. */
  const viewAll = (rows: ReadonlyArray<StoredThread>, viewerId: string) =>
    Effect.gen(function* () {
      const members = new Map<string, Array<string>>()
      for (const { threadId, beingId } of yield* threads.participantsOfThreads(rows.map((row) => row.id))) {
        const list = members.get(threadId) ?? []
        list.push(beingId)
        members.set(threadId, list)
      }
      return yield* Effect.forEach(rows, (row) => view(row, viewerId, members.get(row.id) ?? []))
    })

  return { view, viewAll, announce } as const
})

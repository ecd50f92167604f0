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
import { spanNamed } from "../../kernel/spans.ts"

export const PREVIEW = 140

export const replyPolicyOf = (kind: ThreadKind): ReplyPolicy =>
  kind === "muse" ? "muse" : kind === "direct" ? "being" : "none"

export const makeThreadView = Effect.gen(function* () {
  const threads = yield* ThreadsRepository
  const context = yield* MuseContext
  const beings = yield* ThreadBeings
  const bus = yield* EventBus

  /**
   * Threads as `viewerId` sees them, each read once for all of them whatever their number (a page of the inbox):
   * their participants in one statement, the Muse's name once, the other beings of direct threads in one.
   */
  const viewAll = (rows: ReadonlyArray<StoredThread>, viewerId: string) =>
    Effect.gen(function* () {
      const members = new Map<string, Array<string>>()
      for (const { threadId, beingId } of yield* threads.participantsOfThreads(rows.map((row) => row.id))) {
        const list = members.get(threadId) ?? []
        list.push(beingId)
        members.set(threadId, list)
      }
      const otherOf = (row: StoredThread) => members.get(row.id)?.find((id) => id !== viewerId)
      const museName = rows.some((row) => row.kind === "muse") ? yield* context.museName(viewerId) : null
      const others = new Set(rows.flatMap((row) => (row.kind === "direct" ? (otherOf(row) ?? []) : [])))
      // No direct thread among them (a muse thread's view, told twice a reply): no one's name to read.
      const found = others.size === 0 ? [] : yield* beings.findMany([...others])
      const names = new Map(found.map((being) => [being.id, being.displayName]))
      return rows.map((row): Thread => {
        const other = otherOf(row)
        return {
          id: row.id,
          kind: row.kind,
          title:
            row.kind === "muse"
              ? (museName ?? row.title)
              : row.kind === "direct" && other !== undefined
                ? (names.get(other) ?? row.title)
                : row.title,
          participants: members.get(row.id) ?? [],
          replyPolicy: replyPolicyOf(row.kind),
          preview: row.lastContent === null ? null : row.lastContent.slice(0, PREVIEW),
          lastMessageAt: row.lastMessageAt,
          createdAt: row.createdAt
        }
      })
    })

  /** One thread as `viewerId` sees it: a list of one. */
  const view = (row: StoredThread, viewerId: string) => Effect.map(viewAll([row], viewerId), ([thread]) => thread!)

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
    }).pipe(spanNamed("threads.announce"))

  return { view, viewAll, announce } as const
})

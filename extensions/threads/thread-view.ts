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
   * Each row as its viewer sees it, given who is in it: the Muse's name read once a viewer with a muse thread among
   * them, the other beings of direct threads in one statement for all of them.
   */
  const viewsOf = (
    entries: ReadonlyArray<{
      readonly row: StoredThread
      readonly members: ReadonlyArray<string>
      readonly viewerId: string
    }>
  ) =>
    Effect.gen(function* () {
      const otherOf = (members: ReadonlyArray<string>, viewerId: string) => members.find((id) => id !== viewerId)
      const museViewers = new Set(entries.flatMap(({ row, viewerId }) => (row.kind === "muse" ? [viewerId] : [])))
      const museNames = new Map<string, string>()
      for (const viewerId of museViewers) museNames.set(viewerId, yield* context.museName(viewerId))
      const others = new Set(
        entries.flatMap(({ row, members, viewerId }) =>
          row.kind === "direct" ? (otherOf(members, viewerId) ?? []) : []
        )
      )
      // No direct thread among them (a muse thread's view, told twice a reply): no one's name to read.
      const found = others.size === 0 ? [] : yield* beings.findMany([...others])
      const names = new Map(found.map((being) => [being.id, being.displayName]))
      return entries.map(({ row, members, viewerId }): Thread => {
        const other = otherOf(members, viewerId)
        return {
          id: row.id,
          kind: row.kind,
          title:
            row.kind === "muse"
              ? (museNames.get(viewerId) ?? row.title)
              : row.kind === "direct" && other !== undefined
                ? (names.get(other) ?? row.title)
                : row.title,
          participants: members,
          replyPolicy: replyPolicyOf(row.kind),
          preview: row.lastContent === null ? null : row.lastContent.slice(0, PREVIEW),
          lastMessageAt: row.lastMessageAt,
          createdAt: row.createdAt
        }
      })
    })

  /**
   * Threads as `viewerId` sees them, each read once for all of them whatever their number (a page of the inbox):
   * their participants in one statement, then their views (`viewsOf`).
   */
  const viewAll = (rows: ReadonlyArray<StoredThread>, viewerId: string) =>
    Effect.gen(function* () {
      const members = new Map<string, Array<string>>()
      for (const { threadId, beingId } of yield* threads.participantsOfThreads(rows.map((row) => row.id))) {
        const list = members.get(threadId) ?? []
        list.push(beingId)
        members.set(threadId, list)
      }
      return yield* viewsOf(rows.map((row) => ({ row, members: members.get(row.id) ?? [], viewerId })))
    })

  /** One thread as `viewerId` sees it: a list of one. */
  const view = (row: StoredThread, viewerId: string) => Effect.map(viewAll([row], viewerId), ([thread]) => thread!)

  /**
   * `thread.updated` to every being still in the thread, each with its own view; `only` narrows it to some of them.
   * Who is in the thread is read once, and serves as each view's participants; the thread itself is read once for all
   * of them, unless the caller holds it as it stands now (`row`: a post's read with its own message put last).
   */
  const announce = (
    threadId: string,
    options: { readonly only?: ReadonlyArray<string>; readonly row?: StoredThread | undefined } = {}
  ) =>
    Effect.gen(function* () {
      const members = (yield* threads.participants(threadId)).map((member) => member.beingId)
      const told = members.filter((id) => options.only === undefined || options.only.includes(id))
      if (told.length === 0) return
      const row = options.row ?? Option.getOrUndefined(yield* threads.findFor({ threadId, beingId: told[0]! }))
      if (row === undefined) return
      const views = yield* viewsOf(told.map((viewerId) => ({ row, members, viewerId })))
      yield* Effect.forEach(views, (thread, index) =>
        bus.publish({ kind: "being", beingId: told[index]! }, { type: "thread.updated", thread })
      )
    }).pipe(spanNamed("threads.announce"))

  return { view, viewAll, announce } as const
})

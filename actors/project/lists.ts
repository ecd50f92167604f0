/**
 * The caller's lists of projects as the routes answer them: the project list, the portfolio by
 * standing and the queue of open steps, each a page when one is asked for (kernel/contract/page.ts;
 * docs/decisions.md "Paging"). Every read names the caller's being.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { Page, WholeUnlessPaged } from "../../kernel/contract/page.ts"
import type { Caller } from "../../extensions/accounts/contract/session.ts"
import type { Portfolio, Project, QueueItem } from "./contract/records.ts"
import { type ProjectStore, toTask } from "./store.ts"
import { spanNamed } from "../../kernel/spans.ts"

export const projectLists = (store: ProjectStore) => {
  /** A page of the caller's projects, newest first. */
  const list = (caller: Caller, page: Page) =>
    store.listByOwner({ ownerId: caller.beingId, standing: "any", ...page }).pipe(spanNamed("project.list"))

  /**
   * The caller's projects by standing: every one, or, when a page is asked for, every project still
   * going and that page of the stopped ones and of the done ones (the groups that grow with use).
   */
  const portfolio = (caller: Caller, page: WholeUnlessPaged) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const ownerId = caller.beingId
      const paged = { limit: page.limit ?? null, offset: page.offset ?? 0 }
      const projects =
        page.limit === undefined
          ? yield* store.listByOwner({ ownerId, standing: "any", limit: null, offset: 0 })
          : [
              ...(yield* store.listByOwner({ ownerId, standing: "going", limit: null, offset: 0 })),
              ...(yield* store.listByOwner({ ownerId, standing: "stopped", ...paged })),
              ...(yield* store.listByOwner({ ownerId, standing: "done", ...paged }))
            ]
      const counts = yield* store.taskCounts(projects.map((project) => project.id))
      const grouped: {
        waiting: Array<Portfolio["done"][number]>
        running: Array<Portfolio["done"][number]>
        stalled: Array<Portfolio["done"][number]>
        done: Array<Portfolio["done"][number]>
      } = { waiting: [], running: [], stalled: [], done: [] }
      for (const project of projects) {
        const count = counts.get(project.id) ?? { done: 0, total: 0 }
        const item = { project, tasksDone: count.done, tasksTotal: count.total }
        grouped[standing(project, now)].push(item)
      }
      return grouped satisfies Portfolio
    }).pipe(spanNamed("project.portfolio"))

  /** Every open step of the caller's, or a page of them; the steps of a run are few, so the page is cut here. */
  const queue = (caller: Caller, page: WholeUnlessPaged) =>
    Effect.map(store.openTasksOf(caller.beingId), (rows) =>
      (page.limit === undefined ? rows : rows.slice(page.offset ?? 0, (page.offset ?? 0) + page.limit)).map(
        ({ projectTitle, task }): QueueItem => ({
          projectId: task.projectId,
          projectTitle,
          task: toTask(task),
          assignee: task.assigneeBeingId === null ? "agent" : "person",
          kind: task.kind
        })
      )
    ).pipe(spanNamed("project.queue"))

  return { list, portfolio, queue } as const
}

/** Where a project stands for the portfolio (records.ts says what each group means). */
const standing = (project: Project, now: number): keyof Portfolio => {
  switch (project.status) {
    case "done":
      return "done"
    case "failed":
    case "cancelled":
    case "draft":
      return "waiting"
    default:
      return project.dueAt !== null && Date.parse(project.dueAt) < now ? "stalled" : "running"
  }
}

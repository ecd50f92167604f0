/**
 * The studio's growing lists page (kernel/contract/page.ts): the project list by `limit` (default
 * 50) and `offset`; the portfolio and the queue whole unless a page is asked for, the portfolio
 * paging its done projects only; every bad page refused with 400 and nothing else answered. The
 * projects are written through the studio's own store (as a run leaves them), not run: 60 runs
 * would take minutes and the `llm` rate class.
 */
import * as Effect from "effect/Effect"
import { beforeAll, describe, expect, it } from "vitest"
import { newId, ProjectStore } from "../../actors/project/store.ts"
import type { ProjectStatus } from "../../actors/project/contract/records.ts"
import { badPageQueries, firstPage } from "../support/client.ts"
import { Client, nodeWithOwner, refused, registerMember, run, type Registered } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered
const DONE = 55
const FAILED = 25
const RUNNING = 3
const ALL = DONE + FAILED + RUNNING

/** A project as its run leaves it: `steps` steps, the first `finished` of them done, then `status`. */
const project = (ownerId: string, title: string, status: ProjectStatus, steps: number, finished: number) =>
  Effect.gen(function* () {
    const store = yield* ProjectStore
    const id = newId()
    yield* store.insertProject({ id, ownerId, generatorId: null, title, brief: title, inputs: {} })
    const tasks = yield* store.savePlan(
      id,
      Array.from({ length: steps }, (_, step) => ({
        key: `s${step}`,
        title: `${title}, step ${step}`,
        description: "A step.",
        instruction: "Do the step.",
        role: "writer",
        skills: [],
        tier: "standard" as const,
        dependsOn: [],
        outputKind: "markdown" as const,
        contract: null,
        template: null
      }))
    )
    for (const task of tasks.slice(0, finished)) yield* store.updateTask(task.id, { status: "done" })
    yield* store.setStatus(id, status)
  }).pipe(Effect.provide(ProjectStore.Default))

beforeAll(async () => {
  const { node, owner } = context
  member = await registerMember(node, owner.client)
  await node.runtime.runPromise(
    Effect.gen(function* () {
      for (let i = 0; i < DONE; i++) yield* project(owner.being.id, `Done ${i}`, "done", 1, 1)
      for (let i = 0; i < FAILED; i++) yield* project(owner.being.id, `Failed ${i}`, "failed", 1, 0)
      for (let i = 0; i < RUNNING; i++) yield* project(owner.being.id, `Running ${i}`, "running", 2, 0)
      yield* project(member.being.id, "The member's own", "running", 2, 0)
    })
  )
})

const studio = () => context.owner.client.api.studioProjects
const ids = (projects: ReadonlyArray<{ readonly id: string }>) => projects.map((project) => project.id)

describe("the project list", () => {
  it("answers 50 newest first by default, and the next page from `offset`, together every project once", async () => {
    const all = await run(studio().listProjects({ urlParams: { limit: 200, offset: 0 } }))
    expect(all).toHaveLength(ALL)
    const first = await run(studio().listProjects({ urlParams: firstPage }))
    const second = await run(studio().listProjects({ urlParams: { limit: 50, offset: 50 } }))
    expect(first).toHaveLength(50)
    expect(second).toHaveLength(ALL - 50)
    expect([...ids(first), ...ids(second)]).toEqual(ids(all))
    // The newest first: the running ones were written last.
    expect(first.slice(0, RUNNING).map((project) => project.title)).toEqual(["Running 2", "Running 1", "Running 0"])
    // Without a query the contract's default page: what a plain GET answers.
    const plain = await context.owner.client.raw("GET", "/api/studio/projects")
    expect(plain.status).toBe(200)
    expect(ids(plain.body as ReadonlyArray<{ id: string }>)).toEqual(ids(first))
    // Another being's list holds only theirs.
    expect(
      (await run(member.client.api.studioProjects.listProjects({ urlParams: firstPage }))).map(
        (project) => project.title
      )
    ).toEqual(["The member's own"])
  })
})

describe("the portfolio", () => {
  it("holds every project without a page; with one, every running one and that page of the waiting and the done ones", async () => {
    const whole = await run(studio().portfolio({ urlParams: {} }))
    expect(whole.done).toHaveLength(DONE)
    expect(whole.waiting).toHaveLength(FAILED)
    expect(whole.running).toHaveLength(RUNNING)
    const first = await run(studio().portfolio({ urlParams: { limit: 20, offset: 0 } }))
    const rest = await run(studio().portfolio({ urlParams: { limit: 200, offset: 20 } }))
    expect(first.running).toEqual(whole.running)
    expect(rest.running).toEqual(whole.running)
    expect([first.waiting.length, first.done.length]).toEqual([20, 20])
    expect([rest.waiting.length, rest.done.length]).toEqual([FAILED - 20, DONE - 20])
    expect([...first.done, ...rest.done]).toEqual(whole.done)
    expect([...first.waiting, ...rest.waiting]).toEqual(whole.waiting)
    // Each project still carries its progress.
    expect(first.running.map((item) => [item.tasksDone, item.tasksTotal])).toEqual([
      [0, 2],
      [0, 2],
      [0, 2]
    ])
    expect(first.done[0]).toMatchObject({ tasksDone: 1, tasksTotal: 1 })
  })
})

describe("the queue", () => {
  it("holds every open step without a page, and the page asked for with one", async () => {
    const whole = await run(studio().queue({ urlParams: {} }))
    expect(whole).toHaveLength(RUNNING * 2)
    const first = await run(studio().queue({ urlParams: { limit: 4 } }))
    const second = await run(studio().queue({ urlParams: { limit: 4, offset: 4 } }))
    expect([...first, ...second]).toEqual(whole)
    expect(second).toHaveLength(RUNNING * 2 - 4)
  })
})

describe("a bad page", () => {
  const bad = [...badPageQueries, "limit=1.5", "offset=1000001"]
  it.each(["/api/studio/projects", "/api/studio/portfolio", "/api/studio/queue"])(
    "is refused on %s with 400 invalid_request",
    async (path) => {
      for (const query of bad) {
        const answer = await context.owner.client.raw("GET", `${path}?${query}`)
        expect(answer.status, query).toBe(400)
        expect(answer.body, query).toMatchObject({ error: "invalid_request" })
      }
    }
  )

  it("is refused without a session before anything is read", async () => {
    const stranger = await refused(
      new Client(context.node.url).api.studioProjects.listProjects({ urlParams: firstPage })
    )
    expect(stranger).toMatchObject({ status: 401, body: { error: "unauthorized" } })
  })
})

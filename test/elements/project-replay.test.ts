import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/project/project-place.ts"
import type { ProjectPlace } from "../../ui/places/project/project-place.ts"
import { byText, fakeNode, fill, findAll, refusal, textOf, until } from "./support/fake-node.ts"
import { project, task } from "./support/records.ts"

const detail = "GET /api/studio/projects/p1"
const trace = "GET /api/studio/projects/p1/trace"
const runs = "GET /api/studio/projects/p1/runs"
const replay = "POST /api/studio/projects/p1/replay"

const finished = { status: "done" as const, finishedAt: "2026-01-05T09:04:00.000Z" }
const steps = [
  task({ ...finished, keptInRun: 2 }),
  task({ ...finished, id: "t2", key: "draft", title: "Draft the guide", dependsOn: ["t1"] }),
  task({ ...finished, id: "t3", key: "edit", title: "Edit the guide", dependsOn: ["t2"] })
]
const answer = (over: Parameters<typeof project>[0] = {}) => ({
  json: { project: project({ status: "done", ...over }), tasks: steps, team: null, review: null }
})
const twoRuns = {
  json: [
    {
      projectId: "p1",
      number: 1,
      kind: "start",
      status: "done",
      costUsd: 0.0123,
      fromTaskId: null,
      instruction: null,
      forkedFrom: null,
      startedAt: "2026-01-05T09:00:00.000Z",
      finishedAt: "2026-01-05T09:05:00.000Z"
    },
    {
      projectId: "p1",
      number: 2,
      kind: "replay",
      status: "done",
      costUsd: 0.0042,
      fromTaskId: "t2",
      instruction: "Shorter, please.",
      forkedFrom: null,
      startedAt: "2026-01-05T09:06:00.000Z",
      finishedAt: "2026-01-05T09:08:00.000Z"
    }
  ]
}

const make = () => fixture<ProjectPlace>(html`<project-place projectId="p1"></project-place>`)
const plan = (el: ProjectPlace) => el.shadowRoot!.querySelector("project-plan")!
const stepOf = (el: ProjectPlace, id: string) =>
  plan(el).shadowRoot!.querySelector<HTMLElement>(`[data-task-id="${id}"]`)!

describe("<project-place> run again from a step", () => {
  it("lists the runs with their spend, marks kept steps, and offers to run again from each finished step", async () => {
    fakeNode({ [detail]: answer(), [trace]: { json: [] }, [runs]: twoRuns })
    const el = await make()
    await until(() => textOf(el).includes("Again from “Draft the guide”, adding: “Shorter, please.”."))
    const listed = findAll(el, "li[data-run]")
    expect(listed.map((item) => item.dataset.kind)).to.deep.equal(["start", "replay"])
    expect(textOf(listed[0]!)).to.contain("Run 1").and.contain("$0.0123").and.contain("The first run.")
    expect(textOf(listed[1]!)).to.contain("Run 2").and.contain("$0.0042")
    // Only the step the last run kept says so; every finished step can be run again.
    expect(textOf(stepOf(el, "t1"))).to.contain("Kept")
    expect(textOf(stepOf(el, "t2"))).not.to.contain("Kept")
    expect(findAll(plan(el), "project-replay")).to.have.length(3)
    await expect(el).to.be.accessible()
  })

  it("offers nothing to run again while the run goes", async () => {
    fakeNode({ [detail]: answer({ status: "running" }), [trace]: { json: [] }, [runs]: twoRuns })
    const el = await make()
    await until(() => textOf(el).includes("Run 2"))
    expect(findAll(plan(el), "project-replay")).to.have.length(0)
  })

  it("sends the step with the instruction, says the run goes again, and follows it", async () => {
    const node = fakeNode({
      [detail]: answer(),
      [trace]: { json: [] },
      [runs]: twoRuns,
      [replay]: { json: project({ status: "running", updatedAt: "2026-01-05T09:10:00.000Z" }) }
    })
    const el = await make()
    await until(() => textOf(el).includes("Run 2"))
    byText(stepOf(el, "t2"), "button", "Run again from here").click()
    await until(() => stepOf(el, "t2").querySelector("project-replay")!.shadowRoot!.querySelector("textarea") !== null)
    const form = stepOf(el, "t2").querySelector("project-replay")!
    fill(form, { instruction: "  Add a table.  " })
    node.routes[detail] = answer({ status: "running", updatedAt: "2026-01-05T09:10:00.000Z" })
    byText(form, "button", "Run again").click()
    await until(() => textOf(el).includes("The run goes again from that step"))
    expect(node.to(replay).map((sent) => sent.body)).to.deep.equal([{ fromTaskId: "t2", instruction: "Add a table." }])
    await until(() => findAll(plan(el), "project-replay").length === 0)
    expect(node.to(runs).length).to.be.greaterThan(1)
  })

  it("runs it in a new project copied from this one, and opens that project's page", async () => {
    const where = location.href
    const node = fakeNode({
      [detail]: answer(),
      [trace]: { json: [] },
      [runs]: twoRuns,
      "POST /api/studio/projects/p1/fork": { status: 201, json: project({ id: "p9", status: "running" }) }
    })
    const el = await make()
    await until(() => textOf(el).includes("Run 2"))
    byText(stepOf(el, "t3"), "button", "Run again from here").click()
    const form = stepOf(el, "t3").querySelector("project-replay")!
    await until(() => form.shadowRoot!.querySelector("textarea") !== null)
    fill(form, { instruction: "Use a table." })
    byText(form, "button", "Run it in a new project").click()
    await until(() => location.pathname === "/studio/p9")
    expect(node.to("POST /api/studio/projects/p1/fork").map((sent) => sent.body)).to.deep.equal([
      { fromTaskId: "t3", instruction: "Use a table." }
    ])
    expect(node.to(replay)).to.have.length(0)
    history.replaceState(null, "", where)
  })

  it("tells the node's refusal and sends no instruction when none is given", async () => {
    const node = fakeNode({
      [detail]: answer(),
      [trace]: { json: [] },
      [runs]: twoRuns,
      [replay]: refusal(409, "project_running", "The project's run is not over (it is running).")
    })
    const el = await make()
    await until(() => textOf(el).includes("Run 2"))
    byText(stepOf(el, "t3"), "button", "Run again from here").click()
    const form = stepOf(el, "t3").querySelector("project-replay")!
    await until(() => form.shadowRoot!.querySelector("textarea") !== null)
    byText(form, "button", "Run again").click()
    await until(() => textOf(el).includes("The project's run is not over (it is running)."))
    expect(node.to(replay).map((sent) => sent.body)).to.deep.equal([{ fromTaskId: "t3" }])
  })
})

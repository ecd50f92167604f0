import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/project/project-place.ts"
import type { ProjectPlace } from "../../ui/places/project/project-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { byText, fakeNode, held, refusal, textOf, until } from "./support/fake-node.ts"
import { project, task } from "./support/records.ts"

const detail = "GET /api/studio/projects/p1"
const trace = "GET /api/studio/projects/p1/trace"
const traceEvent = {
  id: "e1",
  projectId: "p1",
  taskId: "t1",
  kind: "think",
  agentId: null,
  text: "Looking for kinds of green tea",
  data: null,
  at: "2026-01-05T09:02:00.000Z"
}
const answer = (over: Parameters<typeof project>[0] = {}) => ({
  json: { project: project(over), tasks: [task()], team: null, review: null }
})

const make = () => fixture<ProjectPlace>(html`<project-place projectId="p1"></project-place>`)
const status = (el: ProjectPlace) => el.shadowRoot!.querySelector(".status")

describe("<project-place>", () => {
  it("says it is loading, then shows the project: its state, brief, plan and trace", async () => {
    const loaded = held()
    fakeNode({ [detail]: loaded.answer, [trace]: { json: [traceEvent] } })
    const el = await make()
    expect(textOf(el)).to.contain("Loading the project…")
    loaded.release(answer())
    await until(() => el.shadowRoot!.querySelector("h1")?.textContent === "A tea guide")
    expect(status(el)!.getAttribute("role")).to.equal("status")
    expect(textOf(status(el))).to.equal("Status: Running")
    expect(textOf(el)).to.contain("Write a short guide to green tea.")
    expect(byText(el, "button", "Cancel the run")).to.exist
    expect(el.shadowRoot!.querySelector("project-plan")!.tasks).to.have.length(1)
    await until(() => textOf(el).includes("Looking for kinds of green tea"))
    await expect(el).to.be.accessible()
  })

  it("shows a step that waits for the owner's decision, with the way to the decision on the desktop", async () => {
    fakeNode({
      [detail]: {
        json: {
          project: project(),
          tasks: [task({ status: "waiting", decisionSignalId: "s9" })],
          team: null,
          review: null
        }
      },
      [trace]: { json: [] }
    })
    const el = await make()
    await until(() => el.shadowRoot!.querySelector("project-plan")?.shadowRoot?.querySelector(".decision") != null)
    const plan = el.shadowRoot!.querySelector("project-plan")!
    const step = plan.shadowRoot!.querySelector('li.step[data-state="waiting"]')!
    expect(textOf(step)).to.contain("Awaits your approval")
    expect(byText(plan, "a", "decide on your desktop").getAttribute("href")).to.equal("/?signal=s9")
    await expect(el).to.be.accessible()
  })

  it("reads the node's 404 for another person's project, or a missing one", async () => {
    fakeNode({
      [detail]: refusal(404, "not_found", "No project p1."),
      [trace]: refusal(404, "not_found", "No project p1.")
    })
    const el = await make()
    await until(() => textOf(el).includes("No project p1."))
    expect(el.shadowRoot!.querySelector("h1")).to.equal(null)
  })

  it("cancels the run and says so; a failed run says why it stopped and offers to resume", async () => {
    const node = fakeNode({
      [detail]: answer(),
      [trace]: { json: [] },
      "POST /api/studio/projects/p1/cancel": {
        json: project({ status: "cancelled", updatedAt: "2026-01-05T09:10:00.000Z" })
      }
    })
    const el = await make()
    await until(() => textOf(el).includes("Cancel the run"))
    node.routes[detail] = answer({ status: "cancelled", updatedAt: "2026-01-05T09:10:00.000Z" })
    byText(el, "button", "Cancel the run").click()
    await until(() => textOf(el).includes("The run is cancelled."))
    expect(node.to("POST /api/studio/projects/p1/cancel")).to.have.length(1)
    expect(textOf(status(el))).to.equal("Status: Cancelled")
    expect(byText(el, "button", "Resume the run")).to.exist

    fakeNode({
      "GET /api/studio/projects/p2": {
        json: {
          project: project({ id: "p2", status: "failed", error: "No model is bound to the strong tier." }),
          tasks: [],
          team: null,
          review: null
        }
      },
      "GET /api/studio/projects/p2/trace": { json: [] }
    })
    el.projectId = "p2"
    await until(() => textOf(el).includes("Why it stopped"))
    expect(textOf(el)).to.contain("No model is bound to the strong tier.")
    expect(byText(el, "button", "Resume the run")).to.exist
  })

  it("says the node's 409 when the run moved on, and loads the page again", async () => {
    const node = fakeNode({
      [detail]: answer(),
      [trace]: { json: [] },
      "POST /api/studio/projects/p1/cancel": refusal(409, "conflict", "The run is already done.")
    })
    const el = await make()
    await until(() => textOf(el).includes("Cancel the run"))
    node.routes[detail] = answer({ status: "done", updatedAt: "2026-01-05T09:20:00.000Z" })
    byText(el, "button", "Cancel the run").click()
    await until(() => textOf(el).includes("The run is already done."))
    await until(() => textOf(status(el)) === "Status: Done")
  })

  it("follows the run live, never going back to an older record", async () => {
    const node = fakeNode({ [detail]: answer(), [trace]: { json: [] } })
    const live = fakeLive()
    const el = await make()
    live.hello()
    await until(() => textOf(status(el)) === "Status: Running")
    // A change of state loads the detail again (the review is not in the record): the node has it by then.
    node.routes[detail] = answer({ status: "review", updatedAt: "2026-01-05T09:30:00.000Z" })
    live.send({
      type: "project.updated",
      project: project({ status: "review", updatedAt: "2026-01-05T09:30:00.000Z" })
    })
    await until(() => textOf(status(el)) === "Status: In review")
    live.send({
      type: "project.updated",
      project: project({ status: "running", updatedAt: "2026-01-05T09:06:00.000Z" })
    })
    live.send({
      type: "project.updated",
      project: project({ id: "p9", status: "failed", updatedAt: "2026-01-05T09:40:00.000Z" })
    })
    live.send({ type: "trace", event: { ...traceEvent, id: "e2", text: "Drafting the guide" } })
    await until(() => textOf(el).includes("Drafting the guide"))
    expect(textOf(status(el))).to.equal("Status: In review")
  })
})

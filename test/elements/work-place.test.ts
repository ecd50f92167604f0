import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/queue/work-place.ts"
import type { WorkPlace } from "../../ui/places/queue/work-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { fakeNode, held, refusal, type Sent, textOf, until } from "./support/fake-node.ts"
import { owner, project, task } from "./support/records.ts"

const queue = "GET /api/studio/queue"
const item = (over: Parameters<typeof task>[0] = {}, assignee: "agent" | "person" = "agent") => ({
  projectId: "p1",
  projectTitle: "A tea guide",
  task: task(over),
  assignee,
  kind: over.kind ?? "work"
})

const make = () => fixture<WorkPlace>(html`<work-place .being=${owner}></work-place>`)

describe("<work-place>", () => {
  it("says it is loading, then lists each open step with its project and who does it", async () => {
    const answer = held()
    fakeNode({ [queue]: answer.answer })
    const el = await make()
    expect(textOf(el)).to.contain("Loading open steps…")
    answer.release({
      json: [
        item({ dueAt: "2026-01-09T12:00:00.000Z" }),
        item(
          {
            id: "t2",
            title: "Check the draft",
            kind: "work",
            assigneeAgentId: null,
            assigneeBeingId: "b-owner",
            role: "editor"
          },
          "person"
        ),
        item(
          {
            id: "t3",
            title: "Approve the plan",
            kind: "approval",
            assigneeAgentId: null,
            assigneeBeingId: "b-other",
            role: "approver"
          },
          "person"
        )
      ]
    })
    await until(() => el.shadowRoot!.querySelectorAll("li.step").length === 3)
    const [first, second, third] = Array.from(el.shadowRoot!.querySelectorAll("li.step"))
    expect(textOf(first!)).to.contain("An agent (researcher)")
    expect(first!.querySelector("time")!.getAttribute("datetime")).to.equal("2026-01-09T12:00:00.000Z")
    expect(first!.querySelector("a")!.getAttribute("href")).to.equal("/studio/p1")
    expect(textOf(second!)).to.contain("You (editor)")
    expect(second!.querySelector("work-hand-in")).not.to.equal(null)
    expect(textOf(third!)).to.contain("A person (approver)")
    expect(textOf(third!)).to.contain("Approval")
    expect(third!.querySelector("work-approve")).to.equal(null)
    await expect(el).to.be.accessible()
  })

  it("shows the first 50 open steps, and the rest after Show more, read again from the top", async () => {
    const open = Array.from({ length: 53 }, (_, i) => item({ id: `t${i}`, title: `Step ${i}` }))
    const page = (sent: Sent) => {
      const offset = Number(sent.search.get("offset"))
      return { json: open.slice(offset, offset + Number(sent.search.get("limit"))) }
    }
    const node = fakeNode({ [queue]: page })
    const el = await make()
    const steps = () => el.shadowRoot!.querySelectorAll("li.step").length
    await until(() => steps() === 50)
    const more = el.shadowRoot!.querySelector<HTMLButtonElement>("button.show-more")!
    expect(more.textContent!.trim()).to.equal("Show more steps")
    await expect(el).to.be.accessible()
    more.click()
    await until(() => steps() === 53)
    expect(el.shadowRoot!.querySelector("button.show-more")).to.equal(null)
    const last = node.to(queue).at(-1)!
    expect([last.search.get("limit"), last.search.get("offset")]).to.deep.equal(["100", "0"])
  })

  it("says when nothing is open, with the way to the studio", async () => {
    fakeNode({ [queue]: { json: [] } })
    const el = await make()
    await until(() => textOf(el).includes("Nothing is open."))
    expect(el.shadowRoot!.querySelector('a[href="/studio"]')).not.to.equal(null)
  })

  it("says a refusal in the node's words", async () => {
    fakeNode({ [queue]: refusal(403, "forbidden", "Work is not yours to see.") })
    const el = await make()
    await until(() => textOf(el).includes("Work is not yours to see."))
    expect(el.shadowRoot!.querySelector("li.step")).to.equal(null)
  })

  it("loads again when a step or a project changes, live", async () => {
    const node = fakeNode({ [queue]: { json: [item()] } })
    const live = fakeLive()
    const el = await make()
    live.hello()
    await node.request(queue)
    await until(() => el.shadowRoot!.querySelectorAll("li.step").length === 1)
    node.routes[queue] = { json: [] }
    const before = node.to(queue).length
    live.send({ type: "task.updated", task: task({ status: "done" }) })
    await until(() => textOf(el).includes("Nothing is open."))
    expect(node.to(queue).length).to.be.greaterThan(before)
    live.send({ type: "project.updated", project: project({ status: "done" }) })
    await node.request(queue, node.to(queue).length + 1)
  })
})

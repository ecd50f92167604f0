import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/studio/studio-place.ts"
import type { StudioPlace } from "../../ui/places/studio/studio-place.ts"
import { fakeNode, type Sent, textOf, until } from "./support/fake-node.ts"
import { project } from "./support/records.ts"

describe("<studio-place>", () => {
  it("shows the gallery, the brief box and the portfolio, each loading on its own", async () => {
    fakeNode({ "GET /api/studio/generators": { json: [] }, "GET /api/studio/portfolio": { json: { groups: [] } } })
    const el = await fixture<StudioPlace>(html`<studio-place></studio-place>`)
    expect(el.shadowRoot!.querySelector("h1")!.textContent).to.equal("Studio")
    for (const section of ["studio-gallery", "studio-brief", "studio-portfolio"])
      expect(el.shadowRoot!.querySelector(section)).not.to.equal(null)
    expect(el.shadowRoot!.querySelector("studio-generator")).to.equal(null)
    await until(() => !textOf(el).includes("Loading"))
  })

  it("opens a generator's form, filled from an earlier run, in place of the gallery", async () => {
    fakeNode({})
    const el = await fixture<StudioPlace>(html`<studio-place generator="meeting-summary" from="p1"></studio-place>`)
    const form = el.shadowRoot!.querySelector("studio-generator")!
    expect([form.slug, form.from]).to.deep.equal(["meeting-summary", "p1"])
    expect(el.shadowRoot!.querySelector("studio-gallery")).to.equal(null)
  })

  it("lists 50 waiting and 50 done projects beside the running ones, and 50 more of each after Show more", async () => {
    const item = (id: string, title: string, status: "done" | "failed") => ({
      project: project({ id, title, status }),
      tasksDone: 1,
      tasksTotal: 1
    })
    const done = Array.from({ length: 70 }, (_, i) => item(`p${i}`, `Done ${i}`, "done"))
    const waiting = Array.from({ length: 55 }, (_, i) => item(`f${i}`, `Failed ${i}`, "failed"))
    const running = [{ project: project({ id: "r1", title: "Running" }), tasksDone: 0, tasksTotal: 2 }]
    const portfolio = (sent: Sent) => {
      const offset = Number(sent.search.get("offset"))
      const end = offset + Number(sent.search.get("limit"))
      return { json: { waiting: waiting.slice(offset, end), running, stalled: [], done: done.slice(offset, end) } }
    }
    const node = fakeNode({ "GET /api/studio/generators": { json: [] }, "GET /api/studio/portfolio": portfolio })
    const el = await fixture<StudioPlace>(html`<studio-place></studio-place>`)
    const section = () => el.shadowRoot!.querySelector("studio-portfolio")!.shadowRoot!
    const listed = (group: string) => section().querySelectorAll(`[data-group=${group}] li.project`).length
    const more = (group: string) => section().querySelector<HTMLButtonElement>(`[data-group=${group}] button.show-more`)
    await until(() => listed("done") === 50)
    expect([listed("waiting"), listed("running")]).to.deep.equal([50, 1])
    expect(textOf(section().querySelector("#group-done"))).to.contain("(50+)")
    expect(textOf(section().querySelector("#group-waiting"))).to.contain("(50+)")
    expect(more("running")).to.equal(null)
    expect(more("waiting")!.textContent!.trim()).to.equal("Show more waiting projects")
    more("done")!.click()
    await until(() => listed("done") === 70)
    expect([listed("waiting"), listed("running")]).to.deep.equal([55, 1])
    expect([more("done"), more("waiting")]).to.deep.equal([null, null])
    expect(textOf(section().querySelector("#group-done"))).to.contain("(70)")
    expect(node.to("GET /api/studio/portfolio").at(-1)!.search.get("limit")).to.equal("100")
  })
})

import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/studio/studio-place.ts"
import type { StudioPlace } from "../../ui/places/studio/studio-place.ts"
import { fakeNode, textOf, until } from "./support/fake-node.ts"

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
})

import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/components/node-alert.ts"
import type { NodeAlert } from "../../ui/components/node-alert.ts"

const region = (el: NodeAlert) => el.shadowRoot!.querySelector(".alert")!

describe("<node-alert>", () => {
  it("is an empty alert region before it has anything to say", async () => {
    const el = await fixture<NodeAlert>(html`<node-alert></node-alert>`)
    expect(region(el).getAttribute("role")).to.equal("alert")
    expect(region(el).getAttribute("aria-live")).to.equal("assertive")
    expect(region(el).textContent!.trim()).to.equal("")
    await expect(el).to.be.accessible()
  })

  it("says an error in the same region once its message is set", async () => {
    const el = await fixture<NodeAlert>(html`<node-alert></node-alert>`)
    const before = region(el)
    el.message = "The code was already used."
    await el.updateComplete
    expect(region(el)).to.equal(before)
    expect(region(el).textContent).to.contain("The code was already used.")
    await expect(el).to.be.accessible()
  })

  it("is a polite status for success and information", async () => {
    for (const kind of ["success", "info"] as const) {
      const el = await fixture<NodeAlert>(html`<node-alert kind=${kind} message="Saved."></node-alert>`)
      expect(region(el).getAttribute("role")).to.equal("status")
      expect(region(el).getAttribute("aria-live")).to.equal("polite")
      expect(region(el).classList.contains(kind)).to.equal(true)
      await expect(el).to.be.accessible()
    }
  })

  it("shows slotted content under the message", async () => {
    const el = await fixture<NodeAlert>(html`<node-alert message="Words only."><a href="/twin">Why</a></node-alert>`)
    const slot = el.shadowRoot!.querySelector("slot")!
    expect(slot.assignedElements()[0]!.textContent).to.equal("Why")
  })
})

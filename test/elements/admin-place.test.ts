import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/admin/admin-place.ts"
import type { AdminPlace } from "../../ui/places/admin/admin-place.ts"
import { byText, fakeNode, held, refusal, textOf, until } from "./support/fake-node.ts"

const codes = "GET /api/auth/codes"
const email = {
  json: { email: "ada@example.test", verified: true, verifiedAt: null, pending: false, emailConfigured: false }
}

describe("<admin-place>", () => {
  it("checks access first, then draws the owner's sections", async () => {
    const answer = held()
    fakeNode({ [codes]: answer.answer, "GET /api/auth/email": email })
    const el = await fixture<AdminPlace>(html`<admin-place></admin-place>`)
    expect(textOf(el)).to.contain("Checking access…")
    answer.release({ json: [] })
    await until(() => el.shadowRoot!.querySelector("admin-codes") !== null)
    for (const section of ["admin-invites", "admin-waitlist", "admin-accounts"])
      expect(el.shadowRoot!.querySelector(section)).not.to.equal(null)
    expect(el.shadowRoot!.querySelector("admin-invites")!.emailConfigured).to.equal(false)
  })

  it("tells anyone but the owner the node's 403 and draws no section", async () => {
    fakeNode({
      [codes]: refusal(403, "forbidden", "Only the owner of this node may do this."),
      "GET /api/auth/email": email
    })
    const el = await fixture<AdminPlace>(html`<admin-place></admin-place>`)
    await until(() => textOf(el).includes("Only the owner of this node may do this."))
    expect(el.shadowRoot!.querySelector("admin-codes")).to.equal(null)
    expect(textOf(el)).to.contain("Admin belongs to the owner of this node.")
    await expect(el).to.be.accessible()
  })

  it("offers to try again when the node failed, and draws the sections once it answers", async () => {
    const node = fakeNode({ [codes]: refusal(500, "internal", "The node failed."), "GET /api/auth/email": email })
    const el = await fixture<AdminPlace>(html`<admin-place></admin-place>`)
    await until(() => textOf(el).includes("Try again"))
    node.routes[codes] = { json: [] }
    byText(el, "button", "Try again").click()
    await until(() => el.shadowRoot!.querySelector("admin-codes") !== null)
  })
})

import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/waitlist/waitlist-place.ts"
import type { WaitlistPlace } from "../../ui/places/waitlist/waitlist-place.ts"
import { fakeNode, fill, find, refusal, textOf, until } from "./support/fake-node.ts"
import { ok } from "./support/records.ts"

const join = "POST /api/auth/waitlist"

describe("<waitlist-place>", () => {
  it("takes an address and says the person is on the list", async () => {
    const node = fakeNode({ [join]: ok })
    const el = await fixture<WaitlistPlace>(html`<waitlist-place></waitlist-place>`)
    await expect(el).to.be.accessible()
    fill(el, { email: "bo@example.test", name: "Bo", why: "Curious" })
    find<HTMLButtonElement>(el, "button[type=submit]").click()
    await until(() => textOf(el).includes("You are on the waitlist."))
    expect(node.to(join)[0]!.body).to.deep.equal({ email: "bo@example.test", name: "Bo", why: "Curious" })
    expect(el.shadowRoot!.querySelector("form")).to.equal(null)
    await expect(el).to.be.accessible()
  })

  it("keeps the form and says why when the node refuses", async () => {
    fakeNode({ [join]: refusal(429, "rate_limited", "Too many requests. Try again in a minute.") })
    const el = await fixture<WaitlistPlace>(html`<waitlist-place></waitlist-place>`)
    fill(el, { email: "bo@example.test" })
    find<HTMLButtonElement>(el, "button[type=submit]").click()
    await until(() => textOf(el).includes("Too many requests."))
    expect(el.shadowRoot!.querySelector("form")).not.to.equal(null)
  })
})

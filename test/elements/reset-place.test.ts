import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/reset/reset-place.ts"
import type { ResetPlace } from "../../ui/places/reset/reset-place.ts"
import { fakeNode, fill, find, refusal, textOf, until } from "./support/fake-node.ts"
import { ok } from "./support/records.ts"

const submit = (el: ResetPlace) => find<HTMLButtonElement>(el, "button[type=submit]").click()

describe("<reset-place>", () => {
  it("without a token asks for a link and says one is on its way", async () => {
    const node = fakeNode({ "POST /api/auth/password/reset/request": ok })
    const el = await fixture<ResetPlace>(html`<reset-place></reset-place>`)
    expect(el.shadowRoot!.querySelector("h1")!.textContent).to.equal("Reset your password")
    await expect(el).to.be.accessible()
    fill(el, { email: "ada@example.test" })
    submit(el)
    await until(() => textOf(el).includes("a reset link is on its way"))
    expect(node.sent[0]!.body).to.deep.equal({ email: "ada@example.test" })
  })

  it("with a token sets the password, and refuses two different ones without asking the node", async () => {
    const node = fakeNode({ "POST /api/auth/password/reset": ok })
    const el = await fixture<ResetPlace>(html`<reset-place token="tok"></reset-place>`)
    expect(el.shadowRoot!.querySelector("h1")!.textContent).to.equal("Set a new password")
    fill(el, { password: "first password", confirm: "other password" })
    submit(el)
    await until(() => textOf(el).includes("The two passwords differ."))
    expect(node.sent).to.have.length(0)
    fill(el, { confirm: "first password" })
    submit(el)
    await until(() => textOf(el).includes("Your new password is set"))
    expect(node.sent[0]!.body).to.deep.equal({ token: "tok", password: "first password" })
    await expect(el).to.be.accessible()
  })

  it("says an expired token in the node's words", async () => {
    fakeNode({ "POST /api/auth/password/reset": refusal(400, "invalid_token", "This reset link has expired.") })
    const el = await fixture<ResetPlace>(html`<reset-place token="old"></reset-place>`)
    fill(el, { password: "first password", confirm: "first password" })
    submit(el)
    await until(() => textOf(el).includes("This reset link has expired."))
  })
})

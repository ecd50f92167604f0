import { expect, fixture, html, oneEvent } from "@open-wc/testing"
import "../../ui/places/register/register-place.ts"
import type { RegisterPlace } from "../../ui/places/register/register-place.ts"
import { fakeNode, fill, find, refusal, textOf, until } from "./support/fake-node.ts"
import { owner } from "./support/records.ts"

const register = "POST /api/auth/register"
const person = { displayName: "Ada", handle: "ada", email: "ada@example.test", password: "long enough" }

describe("<register-place>", () => {
  it("starts with the code of the invitation link", async () => {
    const el = await fixture<RegisterPlace>(html`<register-place code="ABCD-1234"></register-place>`)
    expect(find<HTMLInputElement>(el, '[name="accessCode"]').value).to.equal("ABCD-1234")
    await expect(el).to.be.accessible()
  })

  it("registers and announces the new session", async () => {
    const node = fakeNode({ [register]: { json: { being: owner } } })
    const el = await fixture<RegisterPlace>(html`<register-place code="ABCD-1234"></register-place>`)
    fill(el, person)
    const changed = oneEvent(el, "session-changed")
    find<HTMLButtonElement>(el, "button[type=submit]").click()
    expect((await changed).detail.being.id).to.equal("b-owner")
    expect(node.to(register)[0]!.body).to.deep.equal({ accessCode: "ABCD-1234", ...person })
  })

  it("says a spent code in the node's words", async () => {
    fakeNode({ [register]: refusal(409, "code_used", "This access code was already used.") })
    const el = await fixture<RegisterPlace>(html`<register-place code="USED"></register-place>`)
    fill(el, person)
    find<HTMLButtonElement>(el, "button[type=submit]").click()
    await until(() => textOf(el).includes("This access code was already used."))
  })
})

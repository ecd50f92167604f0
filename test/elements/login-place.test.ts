import { expect, fixture, html, oneEvent } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import "../../ui/places/login/login-place.ts"
import type { LoginPlace } from "../../ui/places/login/login-place.ts"
import { fakeNode, fill, find, held, refusal, textOf, until } from "./support/fake-node.ts"
import { owner } from "./support/records.ts"

const login = "POST /api/auth/login"

describe("<login-place>", () => {
  it("is a labelled form with the ways in for those without an account", async () => {
    const el = await fixture<LoginPlace>(html`<login-place></login-place>`)
    const links = Array.from(el.shadowRoot!.querySelectorAll("a")).map((a) => a.getAttribute("href"))
    expect(links).to.deep.equal(["/reset", "/register", "/waitlist"])
    await expect(el).to.be.accessible()
  })

  it("sends email and password on Enter, rests while it waits, and announces the session", async () => {
    const answer = held()
    const node = fakeNode({ [login]: answer.answer })
    const el = await fixture<LoginPlace>(html`<login-place></login-place>`)
    fill(el, { email: "ada@example.test" })
    find<HTMLInputElement>(el, '[name="password"]').focus()
    await sendKeys({ type: "correct horse" })
    await sendKeys({ press: "Enter" })
    expect((await node.request(login)).body).to.deep.equal({ email: "ada@example.test", password: "correct horse" })
    await el.updateComplete
    const button = find<HTMLButtonElement>(el, "button[type=submit]")
    expect([button.disabled, button.textContent]).to.deep.equal([true, "Logging in…"])
    const changed = oneEvent(el, "session-changed")
    answer.release({ json: { being: owner } })
    expect((await changed).detail.being.handle).to.equal("ada")
  })

  it("says a refusal in the node's words and lets the person try again", async () => {
    fakeNode({ [login]: refusal(401, "unauthorized", "Wrong email or password.") })
    const el = await fixture<LoginPlace>(html`<login-place></login-place>`)
    fill(el, { email: "ada@example.test", password: "nope" })
    find<HTMLButtonElement>(el, "button[type=submit]").click()
    await until(() => textOf(el).includes("Wrong email or password."))
    expect(find<HTMLButtonElement>(el, "button[type=submit]").disabled).to.equal(false)
    await expect(el).to.be.accessible()
  })

  it("lets the browser refuse an empty form without a request", async () => {
    const node = fakeNode({})
    const el = await fixture<LoginPlace>(html`<login-place></login-place>`)
    find<HTMLButtonElement>(el, "button[type=submit]").click()
    await el.updateComplete
    expect(node.sent).to.have.length(0)
  })
})

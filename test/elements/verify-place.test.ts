import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/verify/verify-place.ts"
import type { VerifyPlace } from "../../ui/places/verify/verify-place.ts"
import { fakeNode, held, refusal, textOf, until } from "./support/fake-node.ts"

const verify = "POST /api/auth/verify"

describe("<verify-place>", () => {
  it("sends the token once, says it is confirming, then that the address is confirmed", async () => {
    const answer = held()
    const node = fakeNode({ [verify]: answer.answer })
    const el = await fixture<VerifyPlace>(html`<verify-place token="tok-1"></verify-place>`)
    expect(textOf(el)).to.contain("Confirming…")
    answer.release({ json: { ok: true } })
    await until(() => textOf(el).includes("Your email address is confirmed."))
    el.requestUpdate()
    await el.updateComplete
    expect(node.to(verify).map((sent) => sent.body)).to.deep.equal([{ token: "tok-1" }])
    await expect(el).to.be.accessible()
  })

  it("says a stale token in the node's words, and a link without one", async () => {
    fakeNode({ [verify]: refusal(400, "invalid_token", "This confirmation link has expired.") })
    const el = await fixture<VerifyPlace>(html`<verify-place token="old"></verify-place>`)
    await until(() => textOf(el).includes("This confirmation link has expired."))
    expect(textOf(el)).to.contain("You can send a new confirmation mail from Settings.")
    const bare = await fixture<VerifyPlace>(html`<verify-place></verify-place>`)
    expect(textOf(bare)).to.contain("This link carries no confirmation token.")
  })
})

import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/moderation/moderation-place.ts"
import type { ModerationPlace } from "../../ui/places/moderation/moderation-place.ts"
import { fakeNode, textOf } from "./support/fake-node.ts"
import { owner } from "./support/records.ts"

describe("<moderation-place>", () => {
  it("gives the owner the posts and the listings to moderate", async () => {
    fakeNode({})
    const el = await fixture<ModerationPlace>(html`<moderation-place .being=${owner}></moderation-place>`)
    expect(el.shadowRoot!.querySelector("moderation-posts")).not.to.equal(null)
    expect(el.shadowRoot!.querySelector("moderation-listings")).not.to.equal(null)
  })

  it("tells anyone else it is the owner's, and asks the node nothing", async () => {
    const node = fakeNode({})
    const el = await fixture<ModerationPlace>(
      html`<moderation-place .being=${{ ...owner, isOwner: false }}></moderation-place>`
    )
    expect(textOf(el)).to.contain("Owner only: moderation is for the owner of this node.")
    expect(el.shadowRoot!.querySelector("moderation-posts")).to.equal(null)
    expect(node.sent).to.have.length(0)
    await expect(el).to.be.accessible()
  })
})

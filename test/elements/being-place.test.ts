import { expect, fixture, html, oneEvent } from "@open-wc/testing"
import "../../ui/places/beings/being-place.ts"
import type { BeingPlace } from "../../ui/places/beings/being-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { fakeNode, held, refusal, textOf, until } from "./support/fake-node.ts"
import { listedBeing, owner } from "./support/records.ts"

const bo = "GET /api/beings/b-bo"

const make = async (me = owner) => {
  const live = fakeLive()
  const el = await fixture<BeingPlace>(html`<being-place beingId="b-bo" .being=${me}></being-place>`)
  live.hello()
  return { el, live }
}

describe("<being-place>", () => {
  it("says it is loading, then draws the being and announces its heading", async () => {
    const detail = held()
    fakeNode({ [bo]: detail.answer })
    const { el } = await make()
    expect(textOf(el)).to.contain("Loading the being…")
    const heading = oneEvent(el, "place-heading")
    detail.release({ json: listedBeing({ summary: "Bo bakes bread on Sundays." }) })
    await heading
    await el.updateComplete
    expect(el.shadowRoot!.querySelector("h1")!.textContent).to.equal("Bo")
    expect(textOf(el)).to.contain("@bo")
    expect(textOf(el)).to.contain("Bo bakes bread on Sundays.")
    await expect(el).to.be.accessible()
  })

  it("gives the owner the soul's tools, and anyone else only the soul", async () => {
    fakeNode({ [bo]: { json: listedBeing() } })
    const { el } = await make()
    await until(() => el.shadowRoot!.querySelector("h1") !== null)
    for (const tag of ["soul-view", "soul-mood", "soul-generate", "soul-editor"])
      expect(el.shadowRoot!.querySelector(tag), tag).not.to.equal(null)
    const other = await fixture<BeingPlace>(
      html`<being-place beingId="b-bo" .being=${{ ...owner, id: "b-cy", isOwner: false }}></being-place>`
    )
    await until(() => other.shadowRoot!.querySelector("h1") !== null)
    expect(other.shadowRoot!.querySelector("soul-view")).not.to.equal(null)
    for (const tag of ["soul-mood", "soul-generate", "soul-editor", "being-profile"])
      expect(other.shadowRoot!.querySelector(tag), tag).to.equal(null)
  })

  it("says a missing being in the node's words, and follows its presence live", async () => {
    fakeNode({ [bo]: refusal(404, "not_found", "No being b-bo.") })
    const { el } = await make()
    await until(() => textOf(el).includes("No being b-bo."))
    fakeNode({ [bo]: { json: listedBeing() } })
    const { el: found, live } = await make()
    await until(() => textOf(found).includes("Offline"))
    live.send({ type: "presence.update", beingId: "b-bo", status: "online" })
    await until(() => textOf(found).includes("Online"))
  })
})

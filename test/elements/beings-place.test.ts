import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/beings/beings-place.ts"
import type { BeingsPlace } from "../../ui/places/beings/beings-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { fakeNode, find, held, refusal, textOf, until } from "./support/fake-node.ts"
import { listedBeing, owner } from "./support/records.ts"

const beings = "GET /api/beings"
const everyone = [
  listedBeing({ id: "b-owner", handle: "ada", displayName: "Ada", isOwner: true, online: true }),
  listedBeing(),
  listedBeing({
    id: "b-cit",
    kind: "citizen",
    handle: "mira",
    displayName: "Mira",
    citizen: { role: "Baker", avatar: "🥖", description: "Bakes." }
  })
]

const make = async () => {
  const live = fakeLive()
  const el = await fixture<BeingsPlace>(html`<beings-place .being=${owner}></beings-place>`)
  live.hello()
  return { el, live }
}

describe("<beings-place>", () => {
  it("says it is loading, then groups people and citizens, marking the owner, you and who is online", async () => {
    const list = held()
    fakeNode({ [beings]: list.answer })
    const { el } = await make()
    expect(textOf(el)).to.contain("Loading the beings…")
    list.release({ json: everyone })
    await until(() => el.shadowRoot!.querySelectorAll("li[data-being]").length === 3)
    const ada = find(el, 'li[data-being="b-owner"]')
    expect(textOf(ada)).to.contain("Owner")
    expect(textOf(ada)).to.contain("You")
    expect(textOf(ada)).to.contain("Online")
    expect(textOf(find(el, 'li[data-being="b-cit"]'))).to.contain("Baker")
    expect(find(el, 'li[data-being="b-bo"] a').getAttribute("href")).to.equal("/beings/b-bo")
    // No agents: their group is left out; the others say when they are empty.
    expect(el.shadowRoot!.querySelector("#group-agent")).to.equal(null)
    await expect(el).to.be.accessible()
  })

  it("says an empty group is empty, and a failed load in the node's words", async () => {
    fakeNode({ [beings]: { json: [everyone[0]] } })
    const { el } = await make()
    await until(() => textOf(el).includes("Nobody yet."))
    fakeNode({ [beings]: refusal(500, "internal", "The node failed.") })
    const failed = await fixture<BeingsPlace>(html`<beings-place .being=${owner}></beings-place>`)
    await until(() => textOf(failed).includes("The node failed"))
  })

  it("shows presence as it is heard, live", async () => {
    fakeNode({ [beings]: { json: everyone } })
    const { el, live } = await make()
    await until(() => textOf(el.shadowRoot!.querySelector('li[data-being="b-bo"]')).includes("Offline"))
    live.send({ type: "presence.update", beingId: "b-bo", status: "online" })
    await until(() => textOf(find(el, 'li[data-being="b-bo"]')).includes("Online"))
  })
})

import { expect, fixture, html } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import "../../ui/places/spaces/spaces-place.ts"
import type { SpacesPlace } from "../../ui/places/spaces/spaces-place.ts"
import { byText, fakeNode, fill, find, held, refusal, textOf, until } from "./support/fake-node.ts"

const groups = "GET /api/groups"
const group = (id: string, name: string, over: Record<string, unknown> = {}) => ({
  id,
  name,
  kind: "crew",
  parentId: null,
  createdBy: "b-owner",
  createdAt: "2026-01-05T09:00:00.000Z",
  myRole: "lead",
  ...over
})
const home = group("g1", "Home", { kind: "household" })
const kitchen = group("g2", "Kitchen crew", { parentId: "g1", myRole: "member" })

describe("<spaces-place>", () => {
  it("says it is loading, then shows the groups as a tree with the caller's role", async () => {
    const list = held()
    fakeNode({ [groups]: list.answer })
    const el = await fixture<SpacesPlace>(html`<spaces-place></spaces-place>`)
    expect(textOf(el)).to.contain("Loading groups…")
    list.release({ json: [home, kitchen] })
    await until(() => el.shadowRoot!.querySelector('li[data-group-id="g2"]') !== null)
    expect(find(el, 'li[data-group-id="g1"] li[data-group-id="g2"]')).to.exist
    expect(textOf(find(el, 'li[data-group-id="g2"]'))).to.contain("crew · member")
    // Only a group the caller leads can hold a new one.
    const inside = Array.from(find<HTMLSelectElement>(el, 'select[name="parentId"]').options).map((o) => o.value)
    expect(inside).to.deep.equal(["", "g1"])
    await expect(el).to.be.accessible()
  })

  it("says when the person is in no group, and a failed load in the node's words", async () => {
    fakeNode({ [groups]: { json: [] } })
    const el = await fixture<SpacesPlace>(html`<spaces-place></spaces-place>`)
    await until(() => textOf(el).includes("You are in no group yet."))
    fakeNode({ [groups]: refusal(500, "internal", "The node failed.") })
    const failed = await fixture<SpacesPlace>(html`<spaces-place></spaces-place>`)
    await until(() => textOf(failed).includes("The node failed"))
    expect(failed.shadowRoot!.querySelector("form")).to.equal(null)
  })

  it("opens a group by its button (Enter), and makes a group inside one", async () => {
    const node = fakeNode({
      [groups]: { json: [home] },
      "POST /api/groups": { json: group("g3", "Garden", { parentId: "g1" }) }
    })
    const el = await fixture<SpacesPlace>(html`<spaces-place></spaces-place>`)
    await until(() => textOf(el).includes("Home"))
    byText(el, "button", "Home").focus()
    await sendKeys({ press: "Enter" })
    await el.updateComplete
    expect(byText(el, "button", "Home").getAttribute("aria-pressed")).to.equal("true")
    expect(el.shadowRoot!.querySelector("spaces-group")!.groupId).to.equal("g1")
    fill(el, { name: " Garden ", kind: "Crew", parentId: "g1" })
    byText(el, "button", "Make the group").click()
    expect((await node.request("POST /api/groups")).body).to.deep.equal({
      name: "Garden",
      kind: "crew",
      parentId: "g1"
    })
    await node.request(groups, 2)
    await until(() => el.shadowRoot!.querySelector("spaces-group")!.groupId === "g3")
  })
})

import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/twin/twin-place.ts"
import type { TwinPlace } from "../../ui/places/twin/twin-place.ts"
import { fireEvent } from "../../ui/shell/events.ts"
import { fakeNode } from "./support/fake-node.ts"

const current = (el: TwinPlace) =>
  Array.from(el.shadowRoot!.querySelectorAll('nav a[aria-current="page"]')).map((a) => a.textContent)

describe("<twin-place>", () => {
  it("opens the memories when no section (or an unknown one) is named, marked as the current link", async () => {
    fakeNode({})
    for (const section of ["", "nonsense"]) {
      const el = await fixture<TwinPlace>(html`<twin-place section=${section}></twin-place>`)
      expect(current(el)).to.deep.equal(["Memories"])
      expect(el.shadowRoot!.querySelector("twin-memories")).not.to.equal(null)
      expect(el.shadowRoot!.querySelector("h1")!.getAttribute("tabindex")).to.equal("-1")
    }
  })

  it("draws the section its address names, with links that say where each is", async () => {
    fakeNode({})
    const shown: Record<string, ReadonlyArray<string>> = {
      profile: ["twin-profile"],
      activity: ["twin-activity", "twin-learning", "twin-status"],
      todos: ["twin-todos"],
      agenda: ["twin-agenda"],
      hush: ["twin-hush", "twin-missed"]
    }
    const el = await fixture<TwinPlace>(html`<twin-place></twin-place>`)
    const hrefs = Array.from(el.shadowRoot!.querySelectorAll("nav a")).map((a) => a.getAttribute("href"))
    expect(hrefs).to.deep.equal([
      "/twin",
      "/twin?section=profile",
      "/twin?section=activity",
      "/twin?section=todos",
      "/twin?section=agenda",
      "/twin?section=hush"
    ])
    for (const [section, tags] of Object.entries(shown)) {
      el.section = section
      await el.updateComplete
      for (const tag of tags) expect(el.shadowRoot!.querySelector(tag), tag).not.to.equal(null)
      expect(el.shadowRoot!.querySelector("twin-memories")).to.equal(null)
      expect(current(el)).to.have.length(1)
    }
  })

  it("has What did I miss load again when the hush settings are saved", async () => {
    const node = fakeNode({})
    const el = await fixture<TwinPlace>(html`<twin-place section="hush"></twin-place>`)
    await node.request("GET /api/twin/hush/held")
    fireEvent(el.shadowRoot!.querySelector("twin-hush")!, "hush-changed", {})
    await node.request("GET /api/twin/hush/held", 2)
  })
})

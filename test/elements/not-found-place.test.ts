import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/not-found/not-found-place.ts"
import type { NotFoundPlace } from "../../ui/places/not-found/not-found-place.ts"
import { textOf } from "./support/fake-node.ts"

describe("<not-found-place>", () => {
  it("names the path it does not have and links home", async () => {
    const el = await fixture<NotFoundPlace>(html`<not-found-place></not-found-place>`)
    expect(el.shadowRoot!.querySelector("h1")!.textContent).to.equal("Not found")
    expect(textOf(el)).to.contain(`There is no place at ${location.pathname} on this node.`)
    expect(el.shadowRoot!.querySelector("a")!.getAttribute("href")).to.equal("/")
    await expect(el).to.be.accessible()
  })
})

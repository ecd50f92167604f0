import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/market/market-place.ts"
import type { MarketPlace } from "../../ui/places/market/market-place.ts"
import { fakeNode } from "./support/fake-node.ts"
import { owner } from "./support/records.ts"

const current = (el: MarketPlace) =>
  Array.from(el.shadowRoot!.querySelectorAll('nav a[aria-current="page"]')).map((a) => a.textContent)

describe("<market-place>", () => {
  it("browses by default, with the sections as links that say where one is", async () => {
    fakeNode({})
    const el = await fixture<MarketPlace>(html`<market-place .being=${owner}></market-place>`)
    expect(el.shadowRoot!.querySelector("market-browse")).not.to.equal(null)
    expect(el.shadowRoot!.querySelector("market-balance")).not.to.equal(null)
    expect(current(el)).to.deep.equal(["Browse"])
    const hrefs = Array.from(el.shadowRoot!.querySelectorAll("nav a")).map((a) => a.getAttribute("href"))
    expect(hrefs).to.deep.equal(["/market", "/market/mine", "/market/orders", "/market/wallet"])
  })

  it("draws the section its route names, for the signed-in being", async () => {
    fakeNode({})
    const el = await fixture<MarketPlace>(html`<market-place .being=${owner}></market-place>`)
    for (const [route, tag, label] of [
      ["mine", "market-mine", "My listings"],
      ["orders", "market-orders", "My orders"],
      ["wallet", "market-wallet", "Wallet"]
    ] as const) {
      el.route = route
      await el.updateComplete
      const section = el.shadowRoot!.querySelector(tag)!
      expect(section, tag).not.to.equal(null)
      expect(section.selfId).to.equal("b-owner")
      expect(current(el)).to.deep.equal([label])
    }
  })

  it("takes any other route as a listing's id", async () => {
    fakeNode({})
    const el = await fixture<MarketPlace>(html`<market-place .being=${owner} route="l-42"></market-place>`)
    const listing = el.shadowRoot!.querySelector("market-listing")!
    expect(listing.listingId).to.equal("l-42")
    expect(el.shadowRoot!.querySelector("nav")).to.equal(null)
  })
})

import { expect, fixture, html, waitUntil } from "@open-wc/testing"
import "../../ui/places/desktop/first-steps.ts"
import type { FirstSteps } from "../../ui/places/desktop/first-steps.ts"
import { fakeNode, textOf } from "./support/fake-node.ts"

const tier = (source: string) => ({
  tier: "standard",
  providerId: null,
  model: null,
  source,
  local: true,
  leavesHost: false,
  spentTodayUsd: 0,
  spentMonthUsd: 0,
  ceilingUsd: 20,
  warning: null
})

const progress = (model: string, projects: ReadonlyArray<unknown>) => ({
  "GET /api/llm/tiers": { json: [tier(model)] },
  "GET /api/studio/projects": { json: projects },
  "GET /api/threads": { json: [] }
})

describe("<first-steps>", () => {
  beforeEach(() => localStorage.clear())

  it("marks what is done, links what is not, and stays dismissed once dismissed", async () => {
    fakeNode(progress("environment", []))
    const el = await fixture<FirstSteps>(html`<first-steps beingId="b-owner"></first-steps>`)
    await waitUntil(() => textOf(el.shadowRoot!).includes("First steps"))
    expect(textOf(el.shadowRoot!)).to.contain("Done: Connect a model")
    const links = Array.from(el.shadowRoot!.querySelectorAll("a")).map((a) => [a.textContent, a.getAttribute("href")])
    expect(links).to.deep.equal([
      ["Run a first generator", "/studio"],
      ["Meet the Muse", "/muse"],
      ["Add a widget", "/"]
    ])
    await expect(el).to.be.accessible()
    el.shadowRoot!.querySelector("button")!.click()
    await el.updateComplete
    expect(el.shadowRoot!.querySelector("section")).to.equal(null)
    const again = await fixture<FirstSteps>(html`<first-steps beingId="b-owner"></first-steps>`)
    await again.updateComplete
    expect(again.shadowRoot!.querySelector("section")).to.equal(null)
  })

  it("points at Settings → Models while no model can be called, and is gone once every step is done", async () => {
    const bare = fakeNode({ ...progress("none", []), "PUT /api/llm/tiers/standard": { json: tier("settings") } })
    const el = await fixture<FirstSteps>(html`<first-steps beingId="b-one"></first-steps>`)
    await waitUntil(() => el.shadowRoot!.querySelector('a[href="/settings?section=models"]') !== null)
    // One click binds what nothing can call to the demo models.
    const useDemo = Array.from(el.shadowRoot!.querySelectorAll("button")).find(
      (button) => button.textContent?.trim() === "Use the demo models"
    )!
    useDemo.click()
    expect((await bare.request("PUT /api/llm/tiers/standard")).body).to.deep.equal({
      providerId: "demo",
      model: "demo"
    })
    await waitUntil(() => textOf(el.shadowRoot!).includes("The demo models now serve 1 tier"))
    const node = fakeNode({
      ...progress("settings", [{ id: "p1" }]),
      "GET /api/threads": { json: [{ lastMessageAt: "2026-01-01T00:00:00Z" }] }
    })
    const done = await fixture<FirstSteps>(html`<first-steps beingId="b-two" widgetsStored></first-steps>`)
    // Every step's answer is in (the three reads), and drawn: nothing is left to show.
    for (const route of ["GET /api/llm/tiers", "GET /api/studio/projects", "GET /api/threads"])
      await node.request(route)
    await new Promise((resolve) => setTimeout(resolve))
    await done.updateComplete
    expect(done.shadowRoot!.querySelector("section")).to.equal(null)
  })
})

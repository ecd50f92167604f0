import { expect, fixture, html, waitUntil } from "@open-wc/testing"
import "../../ui/places/settings/settings-model-providers.ts"
import "../../ui/places/settings/settings-model-tiers.ts"
import type { SettingsModelProviders } from "../../ui/places/settings/settings-model-providers.ts"
import type { SettingsModelTiers } from "../../ui/places/settings/settings-model-tiers.ts"
import { fakeNode, refusal, textOf } from "./support/fake-node.ts"

const provider = (fields: Record<string, unknown>) => ({
  id: "prv_a",
  name: "Lab",
  baseUrl: "http://127.0.0.1:11434/v1",
  hasKey: false,
  local: true,
  source: "settings",
  models: null,
  checkedAt: null,
  error: null,
  ...fields
})
const demo = provider({
  id: "demo",
  name: "Demo models (built in)",
  baseUrl: "builtin://demo/v1",
  source: "builtin",
  models: ["demo"]
})
const tiers = ["cheap", "standard", "strong", "image", "embed", "video", "transcribe", "speech", "ocr"].map((tier) => ({
  tier,
  providerId: tier === "standard" ? "prv_a" : null,
  model: tier === "standard" ? "llama3" : null,
  source: tier === "standard" ? "settings" : "none",
  local: true,
  leavesHost: false,
  spentTodayUsd: 0,
  spentMonthUsd: 0.25,
  ceilingUsd: 20,
  warning: null
}))

const inside = (el: Element) => el.shadowRoot!

describe("<settings-model-providers>", () => {
  it("adds a provider with its key, and the key does not stay in the form", async () => {
    const node = fakeNode({
      "GET /api/llm/providers": { json: [demo] },
      "POST /api/llm/providers": { status: 201, json: provider({ name: "Remote", hasKey: true, local: false }) }
    })
    const el = await fixture<SettingsModelProviders>(html`<settings-model-providers></settings-model-providers>`)
    await waitUntil(() => textOf(inside(el)).includes("Demo models (built in)"))
    const form = inside(el).querySelector<HTMLFormElement>('form[aria-label="Add a provider"]')!
    form.querySelector<HTMLInputElement>('input[name="name"]')!.value = "Remote"
    form.querySelector<HTMLInputElement>('input[name="baseUrl"]')!.value = "https://models.example/v1"
    form.querySelector<HTMLInputElement>('input[name="apiKey"]')!.value = "sk-typed-once"
    form.requestSubmit()
    const sent = await node.request("POST /api/llm/providers")
    expect(sent.body).to.deep.equal({ name: "Remote", baseUrl: "https://models.example/v1", apiKey: "sk-typed-once" })
    await waitUntil(() => textOf(inside(el)).includes("Remote is added."))
    expect(form.querySelector<HTMLInputElement>('input[name="apiKey"]')!.value).to.equal("")
    // The built-in one cannot be edited or removed; it can be checked.
    const buttons = Array.from(inside(el).querySelectorAll("button")).map((button) => button.textContent?.trim())
    expect(buttons).to.include("Check Demo models (built in)")
    expect(buttons).not.to.include("Remove Demo models (built in)")
  })

  it("says a failed check in the provider's words, and a refusal in the node's", async () => {
    fakeNode({
      "GET /api/llm/providers": { json: [provider({}), demo] },
      "POST /api/llm/providers/prv_a/check": {
        json: { ok: false, models: [], latencyMs: 3, error: "could not be reached (connect ECONNREFUSED)" }
      },
      "DELETE /api/llm/providers/prv_a": refusal(
        409,
        "provider_in_use",
        "Lab serves the standard tier: bind it elsewhere first."
      )
    })
    const el = await fixture<SettingsModelProviders>(html`<settings-model-providers></settings-model-providers>`)
    await waitUntil(() => textOf(inside(el)).includes("Not checked yet."))
    const button = (name: string) =>
      Array.from(inside(el).querySelectorAll("button")).find((candidate) => candidate.textContent?.trim() === name)!
    button("Check Lab").click()
    await waitUntil(() => textOf(inside(el)).includes("Lab could not be reached (connect ECONNREFUSED)."))
    button("Remove Lab").click()
    await waitUntil(() => textOf(inside(el)).includes("Lab serves the standard tier: bind it elsewhere first."))
  })
})

describe("<settings-model-tiers>", () => {
  it("shows the nine tiers, binds one to a provider's model, and says a warning", async () => {
    const node = fakeNode({
      "GET /api/llm/tiers": { json: tiers },
      "GET /api/llm/providers": { json: [provider({ models: ["llama3", "qwen"] }), demo] },
      "PUT /api/llm/tiers/cheap": {
        json: {
          ...tiers[0],
          providerId: "prv_a",
          model: "mistral",
          source: "settings",
          warning: "The provider does not list the model mistral."
        }
      }
    })
    const el = await fixture<SettingsModelTiers>(html`<settings-model-tiers></settings-model-tiers>`)
    await waitUntil(() => inside(el).querySelectorAll("li.plugin").length === 9)
    expect(textOf(inside(el))).to.contain("Bound here to llama3 of Lab.")
    expect(textOf(inside(el))).to.contain("Spent $0.00 today and $0.25 this month; the node's day ceiling is $20.00.")
    const form = inside(el).querySelector<HTMLFormElement>('form[aria-label="Bind the cheap tier"]')!
    form.querySelector<HTMLSelectElement>("select")!.value = "prv_a"
    form.querySelector<HTMLInputElement>('input[name="model"]')!.value = "mistral"
    form.requestSubmit()
    expect((await node.request("PUT /api/llm/tiers/cheap")).body).to.deep.equal({
      providerId: "prv_a",
      model: "mistral"
    })
    await waitUntil(() => textOf(inside(el)).includes("The provider does not list the model mistral."))
    // The provider's listed models are offered to pick from.
    expect(
      Array.from(inside(el).querySelectorAll("datalist option")).map((option) => option.getAttribute("value"))
    ).to.include("qwen")
  })
})

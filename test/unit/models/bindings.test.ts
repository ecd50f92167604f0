import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { describe, expect, it } from "vitest"
import { ModelSettings, type ModelSettingsShape } from "../../../extensions/models/settings.ts"
import {
  bindingOf,
  defaultBaseUrl,
  environmentBinding,
  fallbackOf,
  inferenceOf,
  isUsable
} from "../../../extensions/models/bindings.ts"
import { noOwnerBindings, type OwnerBindings } from "../../../extensions/models/provider-bindings.ts"
import { isLocalBaseUrl } from "../../../extensions/models/local-address.ts"
import { tierSettings } from "../../support/models.ts"

const settingsWith = (overrides: Partial<ModelSettingsShape>): ModelSettingsShape =>
  Effect.runSync(
    Effect.provide(
      ModelSettings,
      ModelSettings.layer({
        llmApiKey: Option.none(),
        llmBaseUrl: Option.none(),
        llmLocal: Option.none(),
        llmModel: Option.none(),
        llmTiers: tierSettings(),
        localLlmFallback: false,
        ...overrides
      })
    )
  )

const key = (value: string) => Option.some(Redacted.make(value))

describe("where a base URL runs", () => {
  it("reads loopback, private, link-local and LAN names as local", () => {
    for (const url of [
      "http://127.0.0.1:8080/v1",
      "http://localhost:11434/v1",
      "http://[::1]:8000/v1",
      "http://[::ffff:127.0.0.1]:8000/v1",
      "http://10.1.2.3/v1",
      "http://172.20.0.5:8000/v1",
      "http://192.168.1.20:1234/v1",
      "http://169.254.10.10/v1",
      "http://[fd12:3456::1]/v1",
      "http://[fe80::1]/v1",
      "http://ollama:11434/v1",
      "http://gpu.local/v1",
      "http://models.internal/v1",
      "http://box.home.arpa/v1"
    ]) {
      expect(isLocalBaseUrl(url), url).toBe(true)
    }
  })

  it("reads public addresses and names as remote", () => {
    for (const url of [
      "https://api.openai.com/v1",
      "https://openrouter.ai/api/v1",
      "http://8.8.8.8/v1",
      "http://172.32.0.1/v1",
      "http://[2001:db8::1]/v1",
      "not a url"
    ]) {
      expect(isLocalBaseUrl(url), url).toBe(false)
    }
  })
})

describe("tier bindings", () => {
  it("binds every tier to the default provider and its model for the job when nothing is set", () => {
    const settings = settingsWith({})
    const cheap = environmentBinding(settings, "cheap")
    expect(cheap).toMatchObject({ baseUrl: defaultBaseUrl, local: false, model: "gpt-4.1-mini" })
    expect(isUsable(cheap)).toBe(false)
    expect(environmentBinding(settings, "embed").model).toBe("text-embedding-3-small")
  })

  it("gives LLM_MODEL to every chat tier but not to embeddings, images or audio", () => {
    const settings = settingsWith({ llmModel: Option.some("llama3.1") })
    for (const tier of ["cheap", "standard", "strong", "ocr"] as const)
      expect(environmentBinding(settings, tier).model).toBe("llama3.1")
    expect(environmentBinding(settings, "embed").model).toBe("text-embedding-3-small")
  })

  it("lets one tier override its model, server and key; a tier with its own server never gets LLM_API_KEY", () => {
    const settings = settingsWith({
      llmApiKey: key("sk-default"),
      llmTiers: tierSettings({
        strong: { model: "o3-pro" },
        cheap: { baseUrl: "https://other.example/v1" },
        standard: { baseUrl: "https://third.example/v1", apiKey: "sk-third" }
      })
    })
    const strong = environmentBinding(settings, "strong")
    expect(strong.model).toBe("o3-pro")
    expect(Option.map(strong.apiKey, Redacted.value)).toEqual(Option.some("sk-default"))
    const cheap = environmentBinding(settings, "cheap")
    expect(cheap.baseUrl).toBe("https://other.example/v1")
    expect(Option.isNone(cheap.apiKey)).toBe(true)
    expect(isUsable(cheap)).toBe(false)
    expect(Option.map(environmentBinding(settings, "standard").apiKey, Redacted.value)).toEqual(Option.some("sk-third"))
  })

  it("needs no key for a local server, and LLM_LOCAL corrects what an address says", () => {
    const local = settingsWith({ llmBaseUrl: Option.some("http://127.0.0.1:11434/v1") })
    expect(environmentBinding(local, "cheap")).toMatchObject({ local: true })
    expect(isUsable(environmentBinding(local, "cheap"))).toBe(true)
    const proxy = settingsWith({ llmBaseUrl: Option.some("http://127.0.0.1:4000/v1"), llmLocal: Option.some(false) })
    expect(environmentBinding(proxy, "cheap").local).toBe(false)
    const lan = settingsWith({
      llmTiers: tierSettings({ cheap: { baseUrl: "https://gpu.example.org/v1", local: true } })
    })
    expect(environmentBinding(lan, "cheap").local).toBe(true)
  })

  it("offers a fallback for a local tier only with LOCAL_LLM_FALLBACK and a keyed remote default", () => {
    const base = {
      llmApiKey: key("sk-default"),
      llmTiers: tierSettings({ cheap: { baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.1" } })
    }
    const without = settingsWith(base)
    expect(fallbackOf(without, environmentBinding(without, "cheap"))).toBeNull()
    const withFlag = settingsWith({ ...base, localLlmFallback: true })
    expect(fallbackOf(withFlag, environmentBinding(withFlag, "cheap"))).toMatchObject({
      baseUrl: defaultBaseUrl,
      model: "gpt-4.1-mini",
      local: false
    })
    // A remote tier has nothing to fall back from; a keyless remote default is nothing to fall back to.
    expect(fallbackOf(withFlag, environmentBinding(withFlag, "standard"))).toBeNull()
    const keyless = settingsWith({ ...base, llmApiKey: Option.none(), localLlmFallback: true })
    expect(fallbackOf(keyless, environmentBinding(keyless, "cheap"))).toBeNull()
    expect(inferenceOf(withFlag, noOwnerBindings, "cheap")).toEqual({
      tier: "cheap",
      model: "llama3.1",
      baseUrl: "http://127.0.0.1:11434/v1",
      local: true,
      keyConfigured: false,
      available: true,
      fallback: { model: "gpt-4.1-mini", baseUrl: defaultBaseUrl }
    })
  })
})

describe("bindings made in Settings → Models", () => {
  const owned: OwnerBindings = {
    providers: new Map([
      ["prv_a", { id: "prv_a", name: "A", baseUrl: "https://a.example/v1", apiKey: key("sk-a"), hasKey: true }]
    ]),
    tiers: new Map([
      ["standard", { tier: "standard", providerId: "prv_a", model: "a-large" }],
      ["cheap", { tier: "cheap", providerId: "demo", model: "demo" }],
      ["strong", { tier: "strong", providerId: "environment", model: "o3-pro" }]
    ])
  }
  const settings = settingsWith({ llmApiKey: key("sk-default"), llmModel: Option.some("env-model") })

  it("win over the environment, each with its provider's address and key", () => {
    const standard = bindingOf(settings, owned, "standard")
    expect(standard).toMatchObject({ baseUrl: "https://a.example/v1", model: "a-large", source: "settings" })
    expect(Option.map(standard.apiKey, Redacted.value)).toEqual(Option.some("sk-a"))
    // A tier bound to the environment's server takes its address and key with the model named.
    const strong = bindingOf(settings, owned, "strong")
    expect(strong).toMatchObject({ baseUrl: defaultBaseUrl, model: "o3-pro", source: "settings" })
    expect(Option.map(strong.apiKey, Redacted.value)).toEqual(Option.some("sk-default"))
    // Unbound tiers keep the environment's binding.
    expect(bindingOf(settings, owned, "ocr")).toMatchObject({ model: "env-model", source: "environment" })
  })

  it("bind the demo models in this process: local, keyless, usable", () => {
    const cheap = bindingOf(settings, owned, "cheap")
    expect(cheap).toMatchObject({ builtin: true, local: true, model: "demo", providerId: "demo" })
    expect(isUsable(cheap)).toBe(true)
  })

  it("LLM_DEMO binds every tier of the environment to the demo models", () => {
    const demo = settingsWith({ llmDemo: true })
    for (const tier of ["cheap", "embed", "image", "speech"] as const)
      expect(bindingOf(demo, noOwnerBindings, tier)).toMatchObject({ builtin: true, source: "environment" })
  })
})

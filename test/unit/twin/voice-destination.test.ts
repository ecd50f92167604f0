/** The destination fingerprint a consent is bound to: every part of where audio may go moves it. */
import { describe, expect, it } from "vitest"
import { destinationOf } from "../../../extensions/twin/voice/destination.ts"
import type { SttBindingShape, SttRoute } from "../../../extensions/twin/voice/ports.ts"

const local: SttRoute = {
  model: "whisper-large-v3",
  baseUrl: "http://127.0.0.1:8080/v1",
  local: true,
  usdPerMinute: 0,
  priced: true
}
const remote: SttRoute = {
  model: "gpt-4o-mini-transcribe",
  baseUrl: "https://api.openai.com/v1",
  local: false,
  usdPerMinute: 0.003,
  priced: true
}
const binding = (route: SttRoute, fallback: SttRoute | null = null): SttBindingShape => ({
  route,
  fallback,
  available: true,
  reason: null
})
const keyOf = (shape: SttBindingShape) => destinationOf(shape).consentKey

describe("the voice destination", () => {
  it("gives the same key for the same destination, and another when any part moves", () => {
    const base = keyOf(binding(remote))
    expect(keyOf(binding({ ...remote }))).toBe(base)
    const moved = [
      binding({ ...remote, model: "whisper-1" }),
      binding({ ...remote, baseUrl: "https://other.example/v1" }),
      binding({ ...remote, local: true }),
      binding(local),
      binding(local, remote),
      binding(local, { ...remote, model: "whisper-1" })
    ].map(keyOf)
    expect(new Set([base, ...moved]).size).toBe(moved.length + 1)
    // The price is not where audio goes: a new price keeps the consent.
    expect(keyOf(binding({ ...remote, usdPerMinute: 0.5 }))).toBe(base)
  })

  it("counts a local tier allowed to fall back as leaving the device, priced at the fallback", () => {
    expect(destinationOf(binding(local))).toMatchObject({
      leavesDevice: false,
      provider: "local",
      costsMoney: false,
      usdPerMinute: 0
    })
    expect(destinationOf(binding(local, remote))).toMatchObject({
      leavesDevice: true,
      provider: "local+remote",
      requested: "local",
      costsMoney: true,
      usdPerMinute: 0.003,
      destination: "whisper-large-v3 at 127.0.0.1:8080, then gpt-4o-mini-transcribe at api.openai.com if it fails"
    })
  })

  it("never shows credentials a base URL carries, and says when a price is unknown", () => {
    const shown = destinationOf(
      binding({ ...remote, baseUrl: "https://user:secret@stt.example/v1", priced: false, usdPerMinute: 0 })
    )
    expect(shown.baseUrl).toBe("https://stt.example/v1")
    expect(JSON.stringify(shown)).not.toContain("secret")
    expect(shown).toMatchObject({ costsMoney: false, note: expect.stringContaining("LLM_PRICES") })
  })
})

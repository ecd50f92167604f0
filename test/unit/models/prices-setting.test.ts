/**
 * `LLM_PRICES` as an operator writes it: prices by tokens, by the minute of audio, or both; anything else stops the
 * node.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { modelSettingsConfig } from "../../../extensions/models/settings.ts"

const pricesFrom = (text: string) =>
  Effect.either(Effect.map(modelSettingsConfig, (settings) => settings.llmPrices)).pipe(
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map([["LLM_PRICES", text]])))
  )

describe("LLM_PRICES", () => {
  it.effect("reads a price by tokens, a price by the minute, and both", () =>
    Effect.gen(function* () {
      const prices = yield* pricesFrom(
        JSON.stringify({
          chat: { input: 0.5, output: 1.5 },
          "my-whisper": { perMinute: 0.006 },
          both: { input: 1, output: 2, perMinute: 0.01 }
        })
      )
      expect(prices).toEqual(
        Either.right({
          chat: { input: 0.5, output: 1.5 },
          "my-whisper": { input: 0, output: 0, perMinute: 0.006 },
          both: { input: 1, output: 2, perMinute: 0.01 }
        })
      )
    })
  )

  it.effect("refuses a negative or half-written price", () =>
    Effect.gen(function* () {
      for (const bad of [
        { w: { perMinute: -1 } },
        { w: { perMinute: "0.006" } },
        { w: { input: 1 } },
        { w: { input: 1, perMinute: 0.1 } },
        { w: {} }
      ]) {
        expect(Either.isLeft(yield* pricesFrom(JSON.stringify(bad))), JSON.stringify(bad)).toBe(true)
      }
    })
  )
})

/**
 * The three spend ceilings refuse a call before it is made (the scripted provider receives
 * nothing) and raise an alert for the owner. Days are UTC days on Effect's Clock, crossed here
 * with TestClock.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import type { ModelSettingsShape } from "../../../extensions/models/settings.ts"
import type { ChatRequest } from "../../../extensions/models/contract/chat.ts"
import { toApiError } from "../../../extensions/models/contract/errors.ts"
import type { ModelsShape } from "../../../extensions/models/contract/models.ts"
import { remoteDefault, scriptedProviders, tierSettings, withModels } from "../../support/models.ts"

const servers = scriptedProviders()

/** The ceilings are tested on a priced remote provider. */
const withRemoteModels = <A, E>(settings: Partial<ModelSettingsShape>, body: Parameters<typeof withModels<A, E>>[1]) =>
  withModels({ ...remoteDefault(servers.remote.baseUrl), ...settings }, body)

const ask = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "user", content: "Write the next section." }],
  purpose: "task writer",
  ...extra
})

/** One call on gpt-4.1 ($2 per million prompt tokens) that costs exactly `usd`. */
const spend = (models: ModelsShape, usd: number, extra: Partial<ChatRequest> = {}) => {
  servers.remote.script("chat", { content: "done", usage: { promptTokens: usd * 500_000, completionTokens: 0 } })
  return models.chat("standard", ask(extra))
}

describe("the per-call ceiling", () => {
  it.live("refuses a call whose prompt alone is estimated above it, before anything is sent, and raises an alert", () =>
    withRemoteModels({ spendMaxCallUsd: 0.001 }, ({ models, raised }) =>
      Effect.gen(function* () {
        // 40,000 characters ≈ 10,000 tokens ≈ $0.02 on gpt-4.1.
        const failure = yield* Effect.flip(
          models.chat("standard", ask({ messages: [{ role: "user", content: "x".repeat(40_000) }] }))
        )
        expect(failure).toMatchObject({ _tag: "SpendCeilingReached", ceiling: "call", limitUsd: 0.001 })
        if (failure._tag !== "SpendCeilingReached") return
        expect(failure.estimateUsd).toBeGreaterThan(0.02)
        expect(failure.message).toMatch(
          /^This call is estimated at \$0\.02, above the spend ceiling of \$0\.0010 for one call \(SPEND_MAX_CALL_USD\)/
        )
        expect(servers.remote.requests).toHaveLength(0)
        expect(raised).toHaveLength(1)
        expect(raised[0].title).toBe("Spend ceiling reached: a model call was refused")
        expect(raised[0].body).toContain(failure.message)
        expect(raised[0].body).toContain('a standard call to gpt-4.1 for "task writer"')
        // A short prompt is well under it.
        yield* models.chat("standard", ask())
        expect(servers.remote.requests).toHaveLength(1)
      })
    )
  )
})

describe("the per-project ceiling", () => {
  it.live(
    "refuses the project's calls once its spend reaches the ceiling; other projects go on; one alert an hour",
    () =>
      withRemoteModels({ spendMaxProjectUsd: 1 }, ({ models, raised }) =>
        Effect.gen(function* () {
          const first = yield* spend(models, 1, { projectId: "project-a" })
          expect(first.call.costUsd).toBe(1)
          const refused = yield* Effect.flip(models.chat("standard", ask({ projectId: "project-a" })))
          expect(refused).toMatchObject({ _tag: "SpendCeilingReached", ceiling: "project", limitUsd: 1, spentUsd: 1 })
          expect(refused.message).toMatch(/^The project's spend ceiling of \$1\.00 is reached: \$1\.00 spent/)
          expect(servers.remote.requests).toHaveLength(1)
          expect(raised).toHaveLength(1)
          expect(toApiError(refused)).toMatchObject({
            _tag: "OverSpendCeiling",
            error: "spend_ceiling_reached",
            details: { ceiling: "project", limitUsd: 1, spentUsd: 1 }
          })

          yield* models.chat("standard", ask({ projectId: "project-b" }))
          yield* models.chat("standard", ask())
          expect(servers.remote.requests).toHaveLength(3)

          // Refused again, but the owner was told a moment ago.
          yield* Effect.flip(models.chat("standard", ask({ projectId: "project-a" })))
          expect(raised).toHaveLength(1)
        })
      )
  )

  it.live("counts the call about to be made: a call that would take the project past the ceiling is refused", () =>
    withRemoteModels({ spendMaxProjectUsd: 1 }, ({ models }) =>
      Effect.gen(function* () {
        yield* spend(models, 0.99999, { projectId: "project-a" })
        const failure = yield* Effect.flip(
          models.chat(
            "standard",
            ask({ projectId: "project-a", messages: [{ role: "user", content: "x".repeat(400) }] })
          )
        )
        expect(failure).toMatchObject({ _tag: "SpendCeilingReached", ceiling: "project" })
        expect(servers.remote.requests).toHaveLength(1)
      })
    )
  )
})

describe("the per-day ceiling", () => {
  it.effect("refuses every call on the node once the UTC day's spend reaches it, until the next UTC day", () =>
    withRemoteModels({ spendMaxDayUsd: 2 }, ({ models, ledger, raised }) =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2025-03-01T22:30:00Z"))
        yield* spend(models, 1.5, { projectId: "project-a" })
        yield* spend(models, 0.5, { beingId: "being-2" })

        const refused = yield* Effect.flip(models.chat("cheap", ask({ projectId: "project-b" })))
        expect(refused).toMatchObject({ _tag: "SpendCeilingReached", ceiling: "day", limitUsd: 2, spentUsd: 2 })
        expect(refused.message).toMatch(/^The day's spend ceiling of \$2\.00 is reached: \$2\.00 spent today/)
        expect(refused.message).toContain("Model calls resume at 00:00 UTC, or raise SPEND_MAX_DAY_USD.")
        expect(servers.remote.requests).toHaveLength(2)
        expect(raised).toHaveLength(1)
        expect(raised[0].body).toContain("The day's spend ceiling of $2.00 is reached")

        yield* TestClock.setTime(Date.parse("2025-03-01T23:59:59Z"))
        yield* Effect.flip(models.chat("cheap", ask()))
        expect(servers.remote.requests).toHaveLength(2)

        yield* TestClock.setTime(Date.parse("2025-03-02T00:00:01Z"))
        const nextDay = yield* models.chat("cheap", ask())
        expect(nextDay.call.createdAt).toBe("2025-03-02T00:00:01.000Z")
        expect(servers.remote.requests).toHaveLength(3)
        const usage = yield* ledger.usage({ kind: "node" })
        expect(usage.todayUsd).toBeCloseTo(nextDay.call.costUsd, 12)
        expect(usage.totalUsd).toBeCloseTo(2 + nextDay.call.costUsd, 12)
      })
    )
  )

  it.live("lets a local call through even at a ceiling of $0: it costs nothing", () =>
    withRemoteModels(
      { spendMaxDayUsd: 0, llmTiers: tierSettings({ cheap: { baseUrl: servers.local.baseUrl, model: "llama3.1" } }) },
      ({ models, raised }) =>
        Effect.gen(function* () {
          const failure = yield* Effect.flip(models.chat("standard", ask()))
          expect(failure).toMatchObject({ _tag: "SpendCeilingReached", ceiling: "day" })
          const localCall = yield* models.chat("cheap", ask())
          expect(localCall.call).toMatchObject({ provider: "local", costUsd: 0 })
          expect(servers.remote.requests).toHaveLength(0)
          expect(servers.local.requests).toHaveLength(1)
          expect(raised).toHaveLength(1)
        })
    )
  )

  it.effect("checks streams and embeddings too, and raises a refused alert again after an hour", () =>
    withRemoteModels({ spendMaxDayUsd: 0 }, ({ models, raised }) =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.parse("2025-03-01T08:00:00Z"))
        const stream = yield* Effect.flip(Stream.runDrain(models.chatStream("cheap", ask())))
        expect(stream).toMatchObject({ _tag: "SpendCeilingReached", ceiling: "day" })
        const embed = yield* Effect.flip(models.embed({ input: "text", purpose: "memory index" }))
        expect(embed).toMatchObject({ _tag: "SpendCeilingReached", ceiling: "day" })
        expect(raised).toHaveLength(1)
        yield* TestClock.adjust("61 minutes")
        yield* Effect.flip(models.embed({ input: "text", purpose: "memory index" }))
        expect(raised).toHaveLength(2)
        expect(servers.remote.requests).toHaveLength(0)
      })
    )
  )
})

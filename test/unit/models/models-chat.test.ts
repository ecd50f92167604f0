/**
 * The Models service against scripted OpenAI-compatible servers over real HTTP, with a real SQLite
 * ledger. `remote` plays a remote provider (its loopback address is declared remote with
 * LLM_LOCAL=false, so it is priced and keyed); `local` is read as local from its address.
 * Here: chat calls, whole and streamed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { remoteDefault, scriptedProviders, tierSettings, withModels } from "../../support/models.ts"
import { ask, collect } from "./models-support.ts"

const servers = scriptedProviders()

describe("a chat call", () => {
  it.live("is made with the tier's model and key, and recorded with its tokens and cost from the price table", () =>
    withModels(remoteDefault(servers.remote.baseUrl), ({ models, ledger }) =>
      Effect.gen(function* () {
        servers.remote.script("chat", { content: "Hello there.", usage: { promptTokens: 1200, completionTokens: 300 } })
        const result = yield* models.chat(
          "cheap",
          ask("Hi", { purpose: "greeting", beingId: "being-1", projectId: "project-1" })
        )
        expect(result.text).toBe("Hello there.")
        expect(result.finishReason).toBe("stop")
        expect(result.call).toMatchObject({
          beingId: "being-1",
          projectId: "project-1",
          model: "gpt-4.1-mini",
          tier: "cheap",
          provider: "remote",
          baseUrl: servers.remote.baseUrl,
          fallback: false,
          promptTokens: 1200,
          completionTokens: 300,
          usageReported: true,
          pricing: "table",
          purpose: "greeting"
        })
        // gpt-4.1-mini: $0.40 in and $1.60 out per million tokens.
        expect(result.call.costUsd).toBeCloseTo((1200 * 0.4 + 300 * 1.6) / 1_000_000, 12)
        const [request] = servers.remote.requestsFor("chat")
        expect(request.model).toBe("gpt-4.1-mini")
        expect(request.headers.authorization).toBe("Bearer sk-test-default")
        expect(request.body.messages).toEqual([{ role: "user", content: "Hi" }])
        const usage = yield* ledger.usage({ kind: "node" })
        expect(usage.recent).toEqual([result.call])
      })
    )
  )

  it.live("prices a model missing from the table at $0 and says so; LLM_PRICES prices it", () =>
    Effect.gen(function* () {
      const unknown = yield* withModels(
        { ...remoteDefault(servers.remote.baseUrl), llmModel: Option.some("house-model") },
        ({ models }) => models.chat("standard", ask("Hi"))
      )
      expect(unknown.call).toMatchObject({ model: "house-model", costUsd: 0, pricing: "unknown" })
      servers.remote.script("chat", { content: "ok", usage: { promptTokens: 1_000_000, completionTokens: 1_000_000 } })
      const priced = yield* withModels(
        {
          ...remoteDefault(servers.remote.baseUrl),
          llmModel: Option.some("house-model"),
          llmPrices: { "house-model": { input: 1, output: 3 } }
        },
        ({ models }) => models.chat("standard", ask("Hi"))
      )
      expect(priced.call).toMatchObject({ pricing: "setting", costUsd: 4 })
    })
  )

  it.live("sends a local server no key at all, and records the call as local and free", () =>
    withModels(
      {
        llmApiKey: Option.some(Redacted.make("sk-never-sent")),
        llmTiers: tierSettings({ cheap: { baseUrl: servers.local.baseUrl, model: "llama3.1" } })
      },
      ({ models }) =>
        Effect.gen(function* () {
          const result = yield* models.chat("cheap", ask("Hi"))
          expect(result.call).toMatchObject({ provider: "local", model: "llama3.1", pricing: "local", costUsd: 0 })
          const [request] = servers.local.requestsFor("chat")
          expect(request.headers.authorization).toBeUndefined()
          expect(JSON.stringify(request.headers)).not.toContain("sk-never-sent")
        })
    )
  )

  it.live(
    "caps the answer at maxTokens: max_completion_tokens for a remote provider, max_tokens for a local server",
    () =>
      withModels(
        {
          ...remoteDefault(servers.remote.baseUrl),
          llmTiers: tierSettings({ cheap: { baseUrl: servers.local.baseUrl, model: "llama3.1" } })
        },
        ({ models }) =>
          Effect.gen(function* () {
            yield* models.chat("standard", ask("Hi", { maxTokens: 50 }))
            yield* models.chat("cheap", ask("Hi", { maxTokens: 60 }))
            yield* models.chat("standard", ask("Hi"))
            const [capped, uncapped] = servers.remote.requestsFor("chat").map((request) => request.body)
            expect(capped).toMatchObject({ max_completion_tokens: 50 })
            expect(capped.max_tokens).toBeUndefined()
            expect(uncapped.max_completion_tokens).toBeUndefined()
            expect(servers.local.requestsFor("chat")[0].body).toMatchObject({ max_tokens: 60 })
            expect(servers.local.requestsFor("chat")[0].body.max_completion_tokens).toBeUndefined()
          })
      )
  )

  it.live("counts tokens from the text when the server reports no usage", () =>
    withModels(remoteDefault(servers.remote.baseUrl), ({ models }) =>
      Effect.gen(function* () {
        servers.remote.script("chat", { content: "twelve chars", omitUsage: true })
        const result = yield* models.chat("cheap", ask("Hi"))
        expect(result.call).toMatchObject({ usageReported: false, completionTokens: 3 })
        expect(result.call.promptTokens).toBeGreaterThan(0)
        expect(result.call.costUsd).toBeGreaterThan(0)
      })
    )
  )

  it.live("fails with a clear typed error when the provider refuses or does not answer in time", () =>
    withModels({ ...remoteDefault(servers.remote.baseUrl), llmTimeoutMs: 300 }, ({ models, ledger }) =>
      Effect.gen(function* () {
        servers.remote.script("chat", { error: { status: 429, message: "Slow down" } })
        const refused = yield* Effect.flip(models.chat("cheap", ask("Hi")))
        expect(refused).toMatchObject({ _tag: "ModelCallFailed", status: 429 })
        expect(refused.message).toContain("answered 429 Slow down")
        servers.remote.script("chat", { content: "too late", delayMs: 3000 })
        const late = yield* Effect.flip(models.chat("cheap", ask("Hi")))
        expect(late).toMatchObject({ _tag: "ModelCallFailed", status: null })
        expect(late.message).toContain("did not answer within 300 ms")
        expect((yield* ledger.usage({ kind: "node" })).calls).toBe(0)
      })
    )
  )
})

describe("streaming", () => {
  it.live("yields the text as it arrives, then the result, recorded with the reported usage", () =>
    withModels(remoteDefault(servers.remote.baseUrl), ({ models, ledger }) =>
      Effect.gen(function* () {
        servers.remote.script("chat", {
          content: "One two three four five.",
          usage: { promptTokens: 10, completionTokens: 6 }
        })
        const events = yield* collect(
          models.chatStream("standard", ask("Count", { purpose: "muse reply", beingId: "being-1" }))
        )
        const deltas = events.flatMap((event) => (event.type === "delta" ? [event.text] : []))
        expect(deltas.length).toBeGreaterThan(1)
        expect(deltas.join("")).toBe("One two three four five.")
        const done = events.at(-1)
        expect(done?.type).toBe("done")
        if (done?.type !== "done") return
        expect(done.result.text).toBe("One two three four five.")
        expect(done.result.call).toMatchObject({
          model: "gpt-4.1",
          tier: "standard",
          promptTokens: 10,
          completionTokens: 6,
          purpose: "muse reply"
        })
        expect(done.result.call.costUsd).toBeCloseTo((10 * 2 + 6 * 8) / 1_000_000, 12)
        const [request] = servers.remote.requestsFor("chat")
        expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
        expect((yield* ledger.usage({ kind: "node" })).recent).toEqual([done.result.call])
      })
    )
  )

  it.live("fails a stream the model went silent in mid-answer, at once, recording what arrived", () =>
    withModels({ ...remoteDefault(servers.remote.baseUrl), llmTimeoutMs: 300 }, ({ models, ledger }) =>
      Effect.gen(function* () {
        servers.remote.script("chat", { content: "Slow words.", chunkDelayMs: 2000 })
        const started = Date.now()
        const silent = yield* Effect.flip(collect(models.chatStream("cheap", ask("Go"))))
        expect(silent).toMatchObject({ _tag: "ModelCallFailed", status: null })
        expect(silent.message).toContain("went silent for 300 ms mid-answer")
        // The request is aborted with it: the stream does not wait for the server's next chunk to end.
        expect(Date.now() - started).toBeLessThan(1500)
        expect((yield* ledger.usage({ kind: "node" })).calls).toBe(1)
      })
    )
  )

  it.live("records a stream the reader stopped early, counting what arrived", () =>
    withModels(remoteDefault(servers.remote.baseUrl), ({ models, ledger }) =>
      Effect.gen(function* () {
        servers.remote.script("chat", { content: "A long answer that the reader will not wait for.", chunkDelayMs: 20 })
        const firstTwo = yield* collect(Stream.take(models.chatStream("cheap", ask("Go")), 2))
        expect(firstTwo.map((event) => event.type)).toEqual(["delta", "delta"])
        const usage = yield* ledger.usage({ kind: "node" })
        expect(usage.calls).toBe(1)
        expect(usage.recent[0]).toMatchObject({ usageReported: false })
      })
    )
  )
})

/**
 * The Models service against scripted OpenAI-compatible servers over real HTTP, with a real SQLite
 * ledger. `remote` plays a remote provider (its loopback address is declared remote with
 * LLM_LOCAL=false, so it is priced and keyed); `local` is read as local from its address.
 * Here: no model configured, and a local tier whose server fails.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { ModelSettingsShape } from "../../../extensions/models/settings.ts"
import { toApiError } from "../../../extensions/models/contract/errors.ts"
import { remoteDefault, scriptedProviders, tierSettings, withModels } from "../../support/models.ts"
import { startOpenAiServer } from "../../support/openai-server.ts"
import { ask, collect } from "./models-support.ts"

const servers = scriptedProviders()

describe("with no model configured", () => {
  it.live("every call fails at once with ModelsUnavailable saying what to set, and nothing is sent", () =>
    withModels({}, ({ models }) =>
      Effect.gen(function* () {
        const started = Date.now()
        const chat = yield* Effect.flip(models.chat("cheap", ask("Hi")))
        const stream = yield* Effect.flip(collect(models.chatStream("strong", ask("Plan"))))
        const embed = yield* Effect.flip(models.embed({ input: "text", purpose: "index" }))
        expect(Date.now() - started).toBeLessThan(1000)
        for (const failure of [chat, stream, embed]) {
          expect(failure).toMatchObject({ _tag: "ModelsUnavailable" })
          expect(failure.message).toContain(
            "yet: bind the tier in Settings → Models (a provider with its key, a local server"
          )
        }
        // What a route that calls a model answers with.
        expect(toApiError(chat)).toMatchObject({
          _tag: "NoModelToCall",
          error: "models_unavailable",
          details: { tier: "cheap" }
        })
        expect(servers.remote.requests.length + servers.local.requests.length).toBe(0)
      })
    )
  )
})

describe("a local tier whose server fails", () => {
  /** A port nothing listens on: a local server that is down. */
  const deadServer = async () => {
    const server = await startOpenAiServer()
    await server.close()
    return server.baseUrl
  }

  const localCheap = (baseUrl: string): Partial<ModelSettingsShape> => ({
    ...remoteDefault(servers.remote.baseUrl),
    llmTiers: tierSettings({ cheap: { baseUrl, model: "llama3.1" } })
  })

  it.live("does not fall back to the remote provider without LOCAL_LLM_FALLBACK", () =>
    withModels(localCheap(servers.local.baseUrl), ({ models }) =>
      Effect.gen(function* () {
        servers.local.script("chat", { error: { status: 500, message: "out of memory" } })
        const failure = yield* Effect.flip(models.chat("cheap", ask("Private thoughts")))
        expect(failure).toMatchObject({ _tag: "ModelCallFailed", status: 500 })
        expect(failure.message).toContain("does not fall back to a remote provider unless LOCAL_LLM_FALLBACK is set")
        expect(servers.local.requestsFor("chat")).toHaveLength(1)
        expect(servers.remote.requests).toHaveLength(0)
      })
    )
  )

  it.live("with LOCAL_LLM_FALLBACK retries once on the remote default, and the record says who served", () =>
    Effect.gen(function* () {
      const down = yield* Effect.promise(deadServer)
      yield* withModels({ ...localCheap(down), localLlmFallback: true }, ({ models }) =>
        Effect.gen(function* () {
          const result = yield* models.chat("cheap", ask("Hi", { purpose: "fallback" }))
          expect(result.call).toMatchObject({
            provider: "remote",
            fallback: true,
            baseUrl: servers.remote.baseUrl,
            model: "gpt-4.1-mini",
            pricing: "table"
          })
          expect(servers.remote.requestsFor("chat").map((request) => request.model)).toEqual(["gpt-4.1-mini"])
        })
      )
    })
  )

  it.live("streams fall back only before their first byte", () =>
    withModels({ ...localCheap(servers.local.baseUrl), localLlmFallback: true }, ({ models }) =>
      Effect.gen(function* () {
        servers.local.script("chat", { error: { status: 503 } })
        const events = yield* collect(models.chatStream("cheap", ask("Hi")))
        expect(events.at(-1)).toMatchObject({ type: "done", result: { call: { fallback: true, provider: "remote" } } })
        expect(servers.local.requestsFor("chat")).toHaveLength(1)
        expect(servers.remote.requestsFor("chat")).toHaveLength(1)
      })
    )
  )
})

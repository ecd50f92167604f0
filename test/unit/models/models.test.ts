/**
 * The Models service against scripted OpenAI-compatible servers over real HTTP, with a real SQLite
 * ledger. `remote` plays a remote provider (its loopback address is declared remote with
 * LLM_LOCAL=false, so it is priced and keyed); `local` is read as local from its address.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import type { ModelSettingsShape } from "../../../extensions/models/settings.ts"
import type { ChatRequest, ChatStreamEvent } from "../../../extensions/models/contract/chat.ts"
import { toApiError } from "../../../extensions/models/contract/errors.ts"
import { remoteDefault, scriptedProviders, tierSettings, withModels } from "../../support/models.ts"
import { startOpenAiServer } from "../../support/openai-server.ts"

const servers = scriptedProviders()

const ask = (text: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: "user", content: text }],
  purpose: "test",
  ...extra
})

const collect = <E>(stream: Stream.Stream<ChatStreamEvent, E>) => Effect.map(Stream.runCollect(stream), Chunk.toArray)

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

describe("tool calls", () => {
  const tools = [
    {
      name: "math_evaluate",
      description: "Evaluates an arithmetic expression.",
      parameters: { type: "object", properties: { expression: { type: "string" } }, required: ["expression"] }
    }
  ]

  it.live("round-trip: the model's calls come back typed, and the results go back on the wire", () =>
    withModels(remoteDefault(servers.remote.baseUrl), ({ models }) =>
      Effect.gen(function* () {
        servers.remote.script(
          "chat",
          { toolCalls: [{ id: "call_a", name: "math_evaluate", arguments: { expression: "2+2" } }] },
          { content: "It is 4." }
        )
        const first = yield* models.chat("cheap", ask("What is 2+2?", { tools }))
        expect(first.finishReason).toBe("tool_calls")
        expect(first.text).toBe("")
        expect(first.toolCalls).toEqual([{ id: "call_a", name: "math_evaluate", arguments: '{"expression":"2+2"}' }])
        const second = yield* models.chat("cheap", {
          purpose: "test",
          tools,
          messages: [
            { role: "user", content: "What is 2+2?" },
            { role: "assistant", content: first.text, toolCalls: first.toolCalls },
            { role: "tool", toolCallId: "call_a", content: "4" }
          ]
        })
        expect(second.text).toBe("It is 4.")
        const [asked, answered] = servers.remote.requestsFor("chat")
        expect(asked.body.tools).toEqual([{ type: "function", function: tools[0] }])
        expect(answered.body.messages!.slice(1)).toEqual([
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_a", type: "function", function: { name: "math_evaluate", arguments: '{"expression":"2+2"}' } }
            ]
          },
          { role: "tool", tool_call_id: "call_a", content: "4" }
        ])
      })
    )
  )

  it.live("are assembled from a stream's pieces", () =>
    withModels(remoteDefault(servers.remote.baseUrl), ({ models }) =>
      Effect.gen(function* () {
        servers.remote.script("chat", {
          toolCalls: [
            { id: "call_b", name: "web_search", arguments: { query: "effect streams" } },
            { id: "call_c", name: "files_read", arguments: { path: "notes/a.md" } }
          ]
        })
        const events = yield* collect(models.chatStream("cheap", ask("Look it up", { tools })))
        const done = events.at(-1)
        if (done?.type !== "done") throw new Error("the stream did not finish")
        expect(done.result.finishReason).toBe("tool_calls")
        expect(done.result.toolCalls).toEqual([
          { id: "call_b", name: "web_search", arguments: '{"query":"effect streams"}' },
          { id: "call_c", name: "files_read", arguments: '{"path":"notes/a.md"}' }
        ])
      })
    )
  )
})

describe("structured replies", () => {
  const outline = {
    type: "object",
    properties: { title: { type: "string" }, sections: { type: "array", items: { type: "string" } } },
    required: ["title", "sections"],
    additionalProperties: false
  }

  it.live(
    "ask for JSON by schema and come back parsed; a reply that is not JSON is a typed error, still recorded",
    () =>
      withModels(remoteDefault(servers.remote.baseUrl), ({ models, ledger }) =>
        Effect.gen(function* () {
          servers.remote.script("chat", { content: '{"title":"Spring","sections":["Seeds"]}' })
          const request = {
            ...ask("Outline"),
            responseFormat: { type: "json_schema", name: "outline", schema: outline }
          } as const
          const parsed = yield* models.chatJson("standard", request)
          expect(parsed.value).toEqual({ title: "Spring", sections: ["Seeds"] })
          expect(servers.remote.requestsFor("chat")[0].body.response_format).toEqual({
            type: "json_schema",
            json_schema: { name: "outline", schema: outline, strict: true }
          })
          // Unscripted, the fixture answers JSON of the asked shape.
          const example = yield* models.chatJson("standard", request)
          expect(example.value).toEqual({ title: "example", sections: ["example"] })
          servers.remote.script("chat", { content: "Sure! Here is your outline:" })
          const failure = yield* Effect.flip(models.chatJson("standard", request))
          expect(failure).toMatchObject({ _tag: "ModelReplyNotJson", text: "Sure! Here is your outline:" })
          expect((yield* ledger.usage({ kind: "node" })).calls).toBe(3)
        })
      )
  )
})

describe("embeddings", () => {
  it.live("answer one vector per input, in order, recorded at the embedding model's price", () =>
    withModels(remoteDefault(servers.remote.baseUrl), ({ models }) =>
      Effect.gen(function* () {
        servers.remote.script("embeddings", {
          vectors: [
            [1, 0],
            [0, 1]
          ],
          promptTokens: 50_000
        })
        const result = yield* models.embed({ input: ["first", "second"], purpose: "memory index", beingId: "being-1" })
        expect(result.vectors).toEqual([
          [1, 0],
          [0, 1]
        ])
        expect(result.call).toMatchObject({
          tier: "embed",
          model: "text-embedding-3-small",
          promptTokens: 50_000,
          completionTokens: 0
        })
        expect(result.call.costUsd).toBeCloseTo(0.001, 12)
        expect(servers.remote.requestsFor("embeddings")[0].body.input).toEqual(["first", "second"])
      })
    )
  )
})

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
          expect(failure.message).toContain("needs a key. Set LLM_API_KEY, or set LLM_BASE_URL to a local model server")
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

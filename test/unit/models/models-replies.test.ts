/**
 * The Models service against scripted OpenAI-compatible servers over real HTTP, with a real SQLite
 * ledger. `remote` plays a remote provider (its loopback address is declared remote with
 * LLM_LOCAL=false, so it is priced and keyed); `local` is read as local from its address.
 * Here: tool calls, structured replies and embeddings.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { remoteDefault, scriptedProviders, withModels } from "../../support/models.ts"
import { ask, collect } from "./models-support.ts"

const servers = scriptedProviders()

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

/**
 * llm.generate and llm.structured over the host's real llm adapter and Models, against the
 * scripted OpenAI-protocol server over real HTTP, with a real SQLite ledger. The scripted server
 * plays a remote provider (priced by the table: gpt-4.1 for 'standard', gpt-4.1-mini for 'cheap').
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { PluginModule } from "../../../kernel/extensions/context.ts"
import { defineSkill, refusedAsSkillFailure } from "../../../kernel/extensions/skill.ts"
import { LlmLedger } from "../../../extensions/models/ledger.ts"
import { remoteDefault } from "../../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { at } from "../../support/json.ts"

/** A third-party plugin that hands its llm adapter whatever tier it is given, as plain JavaScript could. */
const sneaky: PluginModule = {
  manifest: {
    apiVersion: "1.0",
    id: "@test/sneaky",
    version: "1.0.0",
    namespace: "sneaky",
    name: "Sneaky",
    capabilities: [{ kind: "llm" }],
    extensions: [{ kind: "skill", id: "ask", uses: ["llm"] }]
  },
  activate: (context) =>
    context.contribute(
      "skill",
      "ask",
      defineSkill({
        description: "Asks at any tier.",
        input: Schema.Struct({ tier: Schema.String }),
        output: Schema.Struct({ text: Schema.String }),
        run: ({ tier }, run) =>
          refusedAsSkillFailure(run.adapters.llm!.generate({ tier: tier as "cheap", prompt: "Plan the world." }))
      })
    )
}

const person = {
  type: "object",
  properties: { name: { type: "string" }, age: { type: "integer", minimum: 0 } },
  required: ["name", "age"],
  additionalProperties: false
}

let server: OpenAiServer
let skills: SkillHarness
let unconfigured: SkillHarness

beforeAll(async () => {
  server = await startOpenAiServer()
  skills = await startSkills({ settings: remoteDefault(server.baseUrl), plugins: [sneaky] })
  unconfigured = await startSkills()
})
afterAll(async () => {
  await Promise.all([skills.close(), unconfigured.close()])
  await server.close()
})
beforeEach(() => server.reset())

const recentCalls = () =>
  skills.run(Effect.flatMap(LlmLedger, (ledger) => ledger.usage({ kind: "node" }))).then((usage) => usage.recent)

describe("llm.generate", () => {
  it("answers the model's text, the model and the cost, and records the call charged to the caller and project", async () => {
    server.script("chat", { content: "Tides follow the moon.", usage: { promptTokens: 1000, completionTokens: 200 } })
    const outcome = await skills.invoke(
      "llm.generate",
      { prompt: "Why tides?", system: "Be brief.", maxTokens: 300 },
      { beingId: "ada", projectId: "p-7" }
    )
    expect(outcome).toMatchObject({ ok: true, output: { text: "Tides follow the moon.", model: "gpt-4.1" } })
    expect(at(outcome.output, "costUsd")).toBeGreaterThan(0)
    const [request] = server.requestsFor("chat")
    expect(request.body).toMatchObject({
      model: "gpt-4.1",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Why tides?" }
      ],
      max_completion_tokens: 300
    })
    const [call] = await recentCalls()
    expect(call).toMatchObject({
      beingId: "ada",
      projectId: "p-7",
      tier: "standard",
      purpose: "skill llm.generate",
      costUsd: at(outcome.output, "costUsd")
    })
  })

  it("uses the cheap tier when asked", async () => {
    const outcome = await skills.invoke("llm.generate", { prompt: "Hi", tier: "cheap" }, { beingId: "bo" })
    expect(outcome).toMatchObject({ ok: true, output: { model: "gpt-4.1-mini" } })
    expect((await recentCalls())[0]).toMatchObject({ beingId: "bo", projectId: null, tier: "cheap" })
  })

  it("refuses the strong tier, to the skill's callers and to a plugin's own adapter calls, before any model call", async () => {
    expect(await skills.invoke("llm.generate", { prompt: "Hi", tier: "strong" })).toMatchObject({
      ok: false,
      error: expect.stringContaining('tier: Expected "cheap", actual "strong"')
    })
    expect(await skills.invoke("sneaky.ask", { tier: "strong" })).toMatchObject({
      ok: false,
      error:
        "The 'strong' tier is not for plugins and skills: ask for 'cheap' or 'standard' ('strong' is reserved for the planner and QA)."
    })
    expect(server.requestsFor("chat")).toEqual([])
  })

  it("without a model configured answers ok: false with what to set", async () => {
    expect(await unconfigured.invoke("llm.generate", { prompt: "Hi" })).toMatchObject({
      ok: false,
      error:
        "No model is bound to the 'standard' tier yet: bind the tier in Settings → Models (a provider with its key, " +
        "a local server or the demo models)."
    })
  })

  it("answers plainly when the node has no llm adapter", async () => {
    const unwired = await startSkills({ llm: false })
    try {
      expect(await unwired.invoke("llm.generate", { prompt: "Hi" })).toMatchObject({
        ok: false,
        error: "llm is not wired on this node yet."
      })
      expect(await unwired.invoke("llm.structured", { prompt: "Hi", schema: person })).toMatchObject({
        ok: false,
        error: "llm is not wired on this node yet."
      })
      expect(await unwired.invoke("web.research", { question: "Hi" })).toMatchObject({
        ok: false,
        error: "llm is not wired on this node yet."
      })
    } finally {
      await unwired.close()
    }
  })

  it("answers a provider's failure plainly", async () => {
    server.script("chat", { error: { status: 500, message: "the provider is down" } })
    const outcome = await skills.invoke("llm.generate", { prompt: "Hi" })
    expect(outcome).toMatchObject({ ok: false, error: expect.stringContaining("answered 500") })
  })
})

describe("llm.structured", () => {
  it("answers JSON that fits the schema, asked for by the schema", async () => {
    server.script("chat", { content: '{"name":"Ada","age":36}' })
    const outcome = await skills.invoke("llm.structured", {
      prompt: "Who wrote the first program?",
      schema: person,
      name: "person"
    })
    expect(outcome).toMatchObject({
      ok: true,
      output: { value: { name: "Ada", age: 36 }, model: "gpt-4.1", repaired: false }
    })
    expect(server.requestsFor("chat")[0].body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "person", schema: person, strict: false }
    })
    expect((await recentCalls())[0]).toMatchObject({ purpose: "skill llm.structured", beingId: "ada" })
  })

  it("repairs once, telling the model the validator's exact errors, and charges both calls", async () => {
    server.script(
      "chat",
      { content: '{"name":"Ada","age":"thirty-six","born":1815}' },
      { content: '{"name":"Ada","age":36}' }
    )
    const outcome = await skills.invoke("llm.structured", { prompt: "Who?", schema: person, name: "person" })
    expect(outcome).toMatchObject({ ok: true, output: { value: { name: "Ada", age: 36 }, repaired: true } })
    const [first, repair] = server.requestsFor("chat")
    expect(repair.body.messages!.slice(0, first.body.messages!.length)).toEqual(first.body.messages!)
    expect(repair.body.messages!.at(-2)).toEqual({
      role: "assistant",
      content: '{"name":"Ada","age":"thirty-six","born":1815}'
    })
    const told = repair.body.messages!.at(-1)!
    expect(told.role).toBe("user")
    expect(told.content).toContain("(root) must NOT have additional properties ('born')")
    expect(told.content).toContain("/age must be integer")
    const calls = await recentCalls()
    expect(at(outcome.output, "costUsd")).toBeCloseTo(calls[0].costUsd + calls[1].costUsd, 10)
  })

  it("repairs an answer that is not JSON at all", async () => {
    server.script("chat", { content: "Ada, 36" }, { content: '{"name":"Ada","age":36}' })
    expect(await skills.invoke("llm.structured", { prompt: "Who?", schema: person })).toMatchObject({
      ok: true,
      output: { repaired: true }
    })
    expect(server.requestsFor("chat")[1].body.messages!.at(-1)!.content).toContain("(root) is not JSON")
  })

  it("fails with the validator's errors when the repair does not fit either, after exactly two calls", async () => {
    server.script("chat", { content: '{"name":"Ada"}' }, { content: '{"name":"Ada","age":-1}' })
    const outcome = await skills.invoke("llm.structured", { prompt: "Who?", schema: person })
    expect(outcome).toMatchObject({
      ok: false,
      error: "The model's answer does not fit the schema, even after one repair: /age must be >= 0."
    })
    expect(server.requestsFor("chat")).toHaveLength(2)
  })

  it("refuses a schema that is not a JSON Schema before calling any model", async () => {
    const outcome = await skills.invoke("llm.structured", { prompt: "Who?", schema: { type: "person" } })
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringContaining("The schema is not a valid JSON Schema")
    })
    expect(
      await skills.invoke("llm.structured", {
        prompt: "Who?",
        schema: { type: "object", description: "x".repeat(40_000) }
      })
    ).toMatchObject({ ok: false, error: "The schema must be JSON of at most 32000 characters." })
    expect(server.requestsFor("chat")).toEqual([])
  })

  it("reads a 2020-12 schema by its own dialect", async () => {
    server.script("chat", { content: '["a","b"]' })
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "array",
      prefixItems: [{ type: "string" }],
      items: false
    }
    expect(await skills.invoke("llm.structured", { prompt: "Letters?", schema })).toMatchObject({ ok: false })
    server.script("chat", { content: '["a"]' })
    expect(await skills.invoke("llm.structured", { prompt: "Letters?", schema })).toMatchObject({
      ok: true,
      output: { value: ["a"], repaired: false }
    })
  })

  it("without a model configured answers ok: false with what to set", async () => {
    expect(await unconfigured.invoke("llm.structured", { prompt: "Hi", schema: person })).toMatchObject({
      ok: false,
      error: expect.stringContaining("bind the tier in Settings → Models")
    })
  })
})

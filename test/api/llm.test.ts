/**
 * The model routes on a real node: how tiers resolved (owner only, never a key), what calls cost
 * (the owner sees the node's, anyone else their own), and a spend refusal landing on the owner's
 * desktop as an alert. Calls go through the node's own Models to a scripted provider over HTTP.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { ChatTier } from "../../extensions/models/contract/records.ts"
import { Models } from "../../extensions/models/contract/models.ts"
import { remoteDefault, tierSettings } from "../support/models.ts"
import { type Client, refused, registerMember, registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"

const defaultKey = "sk-secret-default-0123456789"
const embedKey = "sk-secret-embed-9876543210"

let remote: OpenAiServer
let node: TestNode
let owner: Awaited<ReturnType<typeof registerOwner>>
let member: Awaited<ReturnType<typeof registerMember>>

beforeAll(async () => {
  remote = await startOpenAiServer()
  node = await startNode({
    ...remoteDefault(remote.baseUrl, defaultKey),
    llmTiers: tierSettings({
      cheap: { baseUrl: "http://127.0.0.1:11434/v1", model: "llama3.1" },
      embed: { baseUrl: "https://embeddings.example/v1", apiKey: embedKey }
    }),
    localLlmFallback: true,
    spendMaxDayUsd: 3
  })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await remote.close()
})

/** A chat through the node's own Models that the scripted provider bills as told. */
const call = (tier: ChatTier, beingId: string | null, promptTokens: number, completionTokens: number) => {
  remote.script("chat", { content: "ok", usage: { promptTokens, completionTokens } })
  return node.runtime.runPromise(
    Effect.flatMap(Models, (models) =>
      models.chat(tier, { messages: [{ role: "user", content: "Hi" }], purpose: "api test", beingId })
    )
  )
}

describe("GET /api/llm/inference", () => {
  it("is the owner's alone", async () => {
    const answer = await refused(member.client.api.llm.inference())
    expect(answer.status).toBe(403)
    expect(answer.body.error).toBe("forbidden")
  })

  it("shows each tier's model, base URL, locality and fallback, and never a key", async () => {
    // The whole answer as the wire carried it, fields the contract does not list included.
    const wire = await owner.client.raw("GET", "/api/llm/inference")
    expect(wire.status).toBe(200)
    expect(wire.text).not.toContain(defaultKey)
    expect(wire.text).not.toContain(embedKey)
    expect(wire.text).not.toContain("sk-secret")
    const answer = await run(owner.client.api.llm.inference())
    expect(answer.fallbackEnabled).toBe(true)
    expect(answer.ceilings).toEqual({ callUsd: 0.5, projectUsd: 5, dayUsd: 3 })
    expect(answer.tiers.map((tier) => tier.tier)).toEqual([
      "cheap",
      "standard",
      "strong",
      "image",
      "embed",
      "video",
      "transcribe",
      "speech",
      "ocr"
    ])
    const byTier = Object.fromEntries(answer.tiers.map((tier) => [tier.tier, tier]))
    expect(byTier.cheap).toEqual({
      tier: "cheap",
      model: "llama3.1",
      baseUrl: "http://127.0.0.1:11434/v1",
      local: true,
      keyConfigured: false,
      available: true,
      fallback: { model: "gpt-4.1-mini", baseUrl: remote.baseUrl }
    })
    expect(byTier.standard).toEqual({
      tier: "standard",
      model: "gpt-4.1",
      baseUrl: remote.baseUrl,
      local: false,
      keyConfigured: true,
      available: true,
      fallback: null
    })
    expect(byTier.embed).toMatchObject({ baseUrl: "https://embeddings.example/v1", keyConfigured: true, local: false })
  })
})

describe("GET /api/llm/usage", () => {
  it("sums the whole node's calls for the owner, and only their own for anyone else", async () => {
    const usageOf = (client: Client) => run(client.api.llm.usage())
    const empty = await usageOf(member.client)
    expect(empty).toEqual({ todayUsd: 0, totalUsd: 0, calls: 0, byModel: [], recent: [] })

    // gpt-4.1: $2 in, $8 out per million tokens; o3 the same.
    await call("standard", owner.being.id, 100_000, 10_000) // $0.28
    await call("standard", member.being.id, 50_000, 0) // $0.10
    await call("strong", member.being.id, 10_000, 5_000) // $0.06
    await call("standard", null, 25_000, 0) // $0.05, the node's own work

    const all = await usageOf(owner.client)
    expect(all.calls).toBe(4)
    expect(all.totalUsd).toBeCloseTo(0.49, 10)
    expect(all.todayUsd).toBeCloseTo(0.49, 10)
    expect(all.byModel).toEqual([
      { model: "gpt-4.1", calls: 3, usd: expect.closeTo(0.43, 10) },
      { model: "o3", calls: 1, usd: expect.closeTo(0.06, 10) }
    ])
    expect(all.recent.map((row) => row.beingId)).toEqual([null, member.being.id, member.being.id, owner.being.id])
    expect(all.recent[3]).toMatchObject({
      model: "gpt-4.1",
      tier: "standard",
      promptTokens: 100_000,
      completionTokens: 10_000,
      purpose: "api test",
      provider: "remote",
      pricing: "table"
    })

    const own = await usageOf(member.client)
    expect(own.calls).toBe(2)
    expect(own.totalUsd).toBeCloseTo(0.16, 10)
    expect(own.byModel).toEqual([
      { model: "gpt-4.1", calls: 1, usd: expect.closeTo(0.1, 10) },
      { model: "o3", calls: 1, usd: expect.closeTo(0.06, 10) }
    ])
    expect(own.recent.every((row) => row.beingId === member.being.id)).toBe(true)
  })
})

describe("a spend refusal", () => {
  it("fails the call before it is made and puts an alert on the owner's desktop", async () => {
    await call("standard", null, 1_500_000, 0) // $3.00 more: the day's $3 ceiling is passed
    const before = remote.requests.length
    const refused = call("standard", member.being.id, 10, 0)
    await expect(refused).rejects.toThrow(/The day's spend ceiling of \$3\.00 is reached/)
    expect(remote.requests.length).toBe(before)

    const openSignals = (client: Client) =>
      run(client.api.desktop.listSignals({ urlParams: { status: "open", limit: 100, offset: 0 } }))
    const alert = (await openSignals(owner.client)).find((signal) => signal.kind === "alert")
    expect(alert).toMatchObject({ title: "Spend ceiling reached: a model call was refused", priority: "high" })
    expect(alert?.body).toContain("The day's spend ceiling of $3.00 is reached")
    expect((await openSignals(member.client)).some((signal) => signal.kind === "alert")).toBe(false)
  })
})

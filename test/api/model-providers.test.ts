/**
 * Models in the owner's hands over real HTTP, against two scripted OpenAI-protocol servers: a
 * provider added in Settings is checked (its models listed), the standard tier bound to server A
 * serves the Muse's reply, and rebound to B the next reply goes to B with no restart; every
 * refusal of the routes; the key in no answer and not as plain text in the database; local servers
 * found on the ports of LOCAL_LLM_PORTS; the built-in demo models bound with one request.
 */
import { readdirSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { noModelSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import {
  firstPage,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { Client } from "../support/client.ts"
import { until } from "../support/until.ts"

const secretA = "sk-provider-a-7f3e9c1d"
const secretB = "sk-provider-b-2b8a4e6f"

let serverA: OpenAiServer
let serverB: OpenAiServer
let node: TestNode
let owner: Registered
let member: Registered
/** Every answer the owner was given, to look for the keys in. */
const answers: Array<unknown> = []
const kept = async <A>(answer: Promise<A>): Promise<A> => {
  const value = await answer
  answers.push(value)
  return value
}

beforeAll(async () => {
  serverA = await startOpenAiServer()
  serverB = await startOpenAiServer()
  serverA.handle("models", () => ({ ids: ["a-small", "a-large"] }))
  serverB.handle("models", () => ({ ids: ["b-model"] }))
  node = await startNode(noModelSettings)
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node?.close()
  await serverA?.close()
  await serverB?.close()
})

const api = () => owner.client.api.llm

/** The owner's Muse answers one message; answers the reply's text. */
const museReply = async (content: string, who: Registered = owner) => {
  const [thread] = await run(who.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
  await run(who.client.api.threads.postMessage({ path: { id: thread!.id }, payload: { content } }))
  return until(`the Muse's reply to ${content}`, async () => {
    const messages = await run(who.client.api.threads.listMessages({ path: { id: thread!.id } }))
    const last = messages.at(-1)
    return last?.role === "assistant" && messages.some((message) => message.content === content) ? last : undefined
  })
}

describe("a provider added in Settings → Models", () => {
  let idA = ""
  let idB = ""

  it("is added with its key sealed, checked, and lists its models", async () => {
    const added = await kept(
      run(api().addProvider({ payload: { name: "A", baseUrl: serverA.baseUrl, apiKey: secretA } }))
    )
    expect(added).toMatchObject({ name: "A", baseUrl: serverA.baseUrl, hasKey: true, local: true, source: "settings" })
    expect(added).toMatchObject({ models: null, checkedAt: null })
    idA = added.id
    const check = await kept(run(api().checkProvider({ path: { id: idA } })))
    expect(check).toMatchObject({ ok: true, models: ["a-large", "a-small"], error: null })
    expect(check.latencyMs).toBeGreaterThanOrEqual(0)
    // The check asked with the provider's own key.
    expect(serverA.requestsFor("models").at(-1)!.headers.authorization).toBe(`Bearer ${secretA}`)
    const listed = await kept(run(api().providers()))
    expect(listed.find((provider) => provider.id === idA)).toMatchObject({ models: ["a-large", "a-small"] })
    // The built-in demo models are always offered.
    expect(listed.at(-1)).toMatchObject({ id: "demo", source: "builtin", local: true, hasKey: false })
    const second = await kept(
      run(api().addProvider({ payload: { name: "B", baseUrl: serverB.baseUrl, apiKey: secretB } }))
    )
    idB = second.id
  })

  it("serves the standard tier once bound: the Muse's reply reaches A; rebound to B, the next one reaches B", async () => {
    const bound = await kept(
      run(api().bindTier({ path: { tier: "standard" }, payload: { providerId: idA, model: "a-large" } }))
    )
    expect(bound).toMatchObject({
      tier: "standard",
      providerId: idA,
      model: "a-large",
      source: "settings",
      warning: null
    })
    await museReply("Hello A")
    const toA = serverA.requestsFor("chat")
    expect(toA.at(-1)).toMatchObject({ model: "a-large" })
    expect(toA.at(-1)!.headers.authorization).toBe(`Bearer ${secretA}`)

    await kept(run(api().bindTier({ path: { tier: "standard" }, payload: { providerId: idB, model: "b-model" } })))
    const callsToA = serverA.requestsFor("chat").length
    await museReply("Hello B")
    expect(serverB.requestsFor("chat").at(-1)).toMatchObject({ model: "b-model" })
    expect(serverB.requestsFor("chat").at(-1)!.headers.authorization).toBe(`Bearer ${secretB}`)
    expect(serverA.requestsFor("chat")).toHaveLength(callsToA)
    // The live map shows it.
    const inference = await kept(run(api().inference()))
    expect(inference.tiers.find((tier) => tier.tier === "standard")).toMatchObject({
      model: "b-model",
      baseUrl: serverB.baseUrl,
      available: true
    })
  })

  it("lists all nine tiers with their source and spend, and warns of a model the provider does not list", async () => {
    const tiers = await kept(run(api().tiers()))
    expect(tiers.map((tier) => tier.tier)).toHaveLength(9)
    expect(tiers.find((tier) => tier.tier === "standard")).toMatchObject({ source: "settings", leavesHost: false })
    expect(tiers.find((tier) => tier.tier === "standard")!.spentTodayUsd).toBeGreaterThanOrEqual(0)
    // Nothing bound and no environment: nothing can be called.
    expect(tiers.find((tier) => tier.tier === "strong")).toMatchObject({
      source: "none",
      providerId: null,
      model: null
    })
    const unlisted = await kept(
      run(api().bindTier({ path: { tier: "cheap" }, payload: { providerId: idA, model: "no-such" } }))
    )
    expect(unlisted.warning).toContain("does not list the model no-such")
    const back = await kept(run(api().unbindTier({ path: { tier: "cheap" } })))
    expect(back).toMatchObject({ tier: "cheap", source: "none", warning: null })
  })

  it("changes: a renamed provider keeps its key; a null key removes it", async () => {
    const renamed = await kept(run(api().changeProvider({ path: { id: idA }, payload: { name: "A prime" } })))
    expect(renamed).toMatchObject({ name: "A prime", hasKey: true })
    const keyless = await kept(run(api().changeProvider({ path: { id: idA }, payload: { apiKey: null } })))
    expect(keyless.hasKey).toBe(false)
  })

  it("refuses what it must, changing nothing", async () => {
    // Deleting a provider a tier is bound to.
    expect(await refused(api().removeProvider({ path: { id: idB } }))).toMatchObject({
      status: 409,
      body: { error: "provider_in_use", details: { tiers: ["standard"] } }
    })
    // The built-in provider is read-only; unknown ids are 404, for a binding too.
    expect(await refused(api().removeProvider({ path: { id: "demo" } }))).toMatchObject({
      status: 409,
      body: { error: "provider_read_only" }
    })
    expect(await refused(api().checkProvider({ path: { id: "prv_nope" } }))).toMatchObject({
      status: 404,
      body: { error: "provider_not_found" }
    })
    expect(
      await refused(api().bindTier({ path: { tier: "cheap" }, payload: { providerId: "prv_nope", model: "x" } }))
    ).toMatchObject({ status: 404, body: { error: "provider_not_found" } })
    // A bad URL, a URL carrying a password, an unknown tier. (The owner rate class allows 20 a minute: few here.)
    for (const baseUrl of [
      "ftp://models.example/v1",
      "javascript:alert(1)",
      "https://user:pw@models.example/v1",
      "not a url"
    ]) {
      const answer = await owner.client.raw("POST", "/api/llm/providers", { name: "Bad", baseUrl })
      expect(answer.status, baseUrl).toBe(400)
      expect(answer.body).toMatchObject({ error: "invalid_request" })
    }
    expect((await owner.client.raw("PUT", "/api/llm/tiers/huge", { providerId: idA, model: "m" })).status).toBe(400)
    // Another site's page cannot add one with the owner's cookie.
    const crossSite = await owner.client.raw(
      "POST",
      "/api/llm/providers",
      { name: "Evil", baseUrl: "https://evil.example/v1" },
      { origin: "https://evil.example" }
    )
    expect(crossSite.status).toBe(403)
    // A member and no session.
    expect(await refused(member.client.api.llm.providers())).toMatchObject({
      status: 403,
      body: { error: "forbidden" }
    })
    expect(await refused(member.client.api.llm.tiers())).toMatchObject({ status: 403 })
    expect(
      await refused(
        member.client.api.llm.bindTier({ path: { tier: "standard" }, payload: { providerId: "demo", model: "demo" } })
      )
    ).toMatchObject({ status: 403 })
    expect((await new Client(node.url).raw("GET", "/api/llm/providers")).status).toBe(401)
    const names = (await run(api().providers())).map((provider) => provider.name)
    expect(names).toEqual(["A prime", "B", "Demo models (built in)"])
  })

  it("never shows a key: in no answer, and not as plain text in the database", () => {
    const seen = JSON.stringify(answers)
    expect(seen).not.toContain(secretA)
    expect(seen).not.toContain(secretB)
    for (const file of readdirSync(node.dataDir).filter((name) => name.startsWith("node.db"))) {
      const bytes = readFileSync(join(node.dataDir, file))
      expect(bytes.includes(secretA), file).toBe(false)
      expect(bytes.includes(secretB), file).toBe(false)
    }
  })
})

/** A node of its own: the owner rate class (20 a minute) is spent above. */
describe("checks, local servers and the demo models", () => {
  let second: TestNode
  let other: Registered
  beforeAll(async () => {
    const port = Number(new URL(serverA.baseUrl).port)
    second = await startNode({ ...noModelSettings, localLlmPorts: [port] })
    other = await registerOwner(second)
  })
  afterAll(() => second?.close())

  it("answers an unreachable server's check with ok: false and why, never a 5xx", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer()
      probe.listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(port))
      })
    })
    const gone = await kept(
      run(other.client.api.llm.addProvider({ payload: { name: "Gone", baseUrl: `http://127.0.0.1:${closed}/v1` } }))
    )
    const check = await kept(run(other.client.api.llm.checkProvider({ path: { id: gone.id } })))
    expect(check).toMatchObject({ ok: false, models: [] })
    expect(check.error).toContain("could not be reached")
    expect((await run(other.client.api.llm.providers())).find((provider) => provider.id === gone.id)!.error).toContain(
      "could not be reached"
    )
    await run(other.client.api.llm.removeProvider({ path: { id: gone.id } }))
  })

  it("finds a local server listening on a port of LOCAL_LLM_PORTS, binding nothing", async () => {
    const { found } = await kept(run(other.client.api.llm.detectProviders()))
    expect(found).toEqual([{ baseUrl: serverA.baseUrl, models: ["a-large", "a-small"] }])
  })

  it("binds the built-in demo models in one request: a Muse reply with no server at all", async () => {
    await run(
      other.client.api.llm.bindTier({ path: { tier: "standard" }, payload: { providerId: "demo", model: "demo" } })
    )
    const before = serverA.requests.length + serverB.requests.length
    const reply = await museReply("Hello demo", other)
    expect(reply.content).toContain("demo model")
    expect(serverA.requests.length + serverB.requests.length).toBe(before)
    expect(await run(other.client.api.health.health())).toMatchObject({ models: { demo: true } })
  })
})

import type * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { apiError, attempt, Client, refused, registerOwner, run, startNode, type TestNode } from "../support/node.ts"
import { rawRequest } from "../support/raw-http.ts"

const badLogin = { payload: { email: "a@b.cd", password: "x" } }

describe("security headers", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startNode()
  })
  afterAll(() => node.close())

  it("puts the spec's headers on JSON answers, without a content policy", async () => {
    // Headers are the point: read raw.
    for (const path of ["/api/health", "/api/auth/me"]) {
      const answer = await new Client(node.url).raw("GET", path)
      expect(answer.headers["x-content-type-options"]).toBe("nosniff")
      expect(answer.headers["x-frame-options"]).toBe("SAMEORIGIN")
      expect(answer.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin")
      expect(answer.headers["cross-origin-resource-policy"]).toBe("same-site")
      expect(answer.headers["content-security-policy"]).toBeUndefined()
    }
  })

  it("serves the UI's HTML with a strict content security policy", async () => {
    for (const path of ["/", "/settings", "/admin"]) {
      const answer = await new Client(node.url).raw("GET", path)
      expect(answer.status).toBe(200)
      expect(answer.headers["content-type"]).toMatch(/^text\/html/)
      const policy = answer.headers["content-security-policy"] ?? ""
      expect(policy).toContain("default-src 'self'")
      expect(policy).toContain("script-src 'self'")
      expect(policy).not.toContain("unsafe-inline")
      expect(policy).not.toContain("unsafe-eval")
      expect(policy).toContain("object-src 'none'")
    }
  })
})

describe("rate limits", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startNode({ rateLimitPerMinute: 40 })
  })
  afterAll(() => node.close())

  /** Sends one call `times` times in turn; answers each answer's status. */
  const hammer = async <A, E>(call: Effect.Effect<A, E>, times: number) => {
    const statuses: number[] = []
    for (let i = 0; i < times; i++) {
      const answer = await attempt(call)
      statuses.push(answer.ok ? 200 : answer.status)
    }
    return statuses
  }

  it("allows 10 logins a minute per address, then 429 with Retry-After", async () => {
    const client = new Client(node.url, { "x-forwarded-for": "10.9.9.1" })
    const statuses = await hammer(client.api.authPublic.login(badLogin), 10)
    expect(statuses.every((s) => s === 401)).toBe(true)
    // The 11th read raw, for its Retry-After header.
    const last = await client.raw("POST", "/api/auth/login", badLogin.payload)
    expect(last.status).toBe(429)
    expect(apiError(last).error).toBe("rate_limited")
    const retry = Number(last.headers["retry-after"])
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(60)
    const elsewhere = await refused(
      new Client(node.url, { "x-forwarded-for": "10.9.9.2" }).api.authPublic.login(badLogin)
    )
    expect(elsewhere.status).toBe(401)
  })

  it("allows 5 waitlist joins a minute per address", async () => {
    const client = new Client(node.url, { "x-forwarded-for": "10.9.9.3" })
    const statuses: number[] = []
    for (let i = 0; i < 6; i++) {
      const answer = await attempt(
        client.api.authPublic.joinWaitlist({ payload: { email: `w${i}@example.org`, name: "w", why: "" } })
      )
      statuses.push(answer.ok ? 200 : answer.status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
  })

  it("allows 20 code mints a minute per address", async () => {
    const owner = await registerOwner(node, { "x-forwarded-for": "10.9.9.4" })
    const statuses = await hammer(owner.client.api.auth.mintCodes({ payload: { count: 1, note: "" } }), 21)
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true)
    expect(statuses[20]).toBe(429)
  })

  it("counts a login however its path is spelled: the limit keys on the route the contract matched", async () => {
    const { port } = new URL(node.url)
    const targets = [
      "/API/auth/login",
      "/api/auth/login/",
      "//api/auth/login",
      "/api//auth/login",
      "/api/auth/%6cogin",
      "/api/auth/login;x",
      "/api/./auth/login",
      "/api/auth/login?x=1",
      `http://127.0.0.1:${port}/api/auth/login`,
      "/Api/Auth/Login/"
    ]
    const body = JSON.stringify({ email: "a@b.cd", password: "wrong password" })
    const statuses: Array<number> = []
    for (const target of [...targets, ...targets]) {
      const head = `POST ${target} HTTP/1.1\r\nContent-Type: application/json\r\nX-Forwarded-For: 10.9.8.1\r\nContent-Length: ${body.length}`
      statuses.push((await rawRequest(node.url, head, body)).status)
    }
    // Each spelling either reaches the login route (and counts) or is no route at all.
    expect(statuses.every((status) => status === 401 || status === 404 || status === 429)).toBe(true)
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10)
    expect(statuses.slice(-5).every((status) => status === 429 || status === 404)).toBe(true)
  })

  it("takes the client address TRUST_PROXY hops from the right of X-Forwarded-For, so a client cannot pick its own", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 11; i++) {
      const client = new Client(node.url, { "x-forwarded-for": `192.0.2.${i}, 10.9.8.2` })
      statuses.push((await refused(client.api.authPublic.login(badLogin))).status)
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true)
    expect(statuses[10]).toBe(429)
  })

  it("caps every /api request per address at RATE_LIMIT_PER_MINUTE", async () => {
    const client = new Client(node.url, { "x-forwarded-for": "10.9.9.5" })
    const statuses = await hammer(client.api.health.health(), 41)
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true)
    expect(statuses[40]).toBe(429)
  })
})

describe("GET /api/health", () => {
  let node: TestNode
  afterAll(() => node.close())

  it("is public and reports every part honestly, never a key", async () => {
    node = await startNode({ llmApiKey: Option.some(Redacted.make("sk-test-secret-key")) })
    const answer = await run(new Client(node.url).api.health.health())
    expect(answer).toMatchObject({
      ok: true,
      database: { ok: true },
      models: { keyConfigured: true },
      mail: { configured: false },
      process: { pid: expect.any(Number) }
    })
    expect(answer.database.latencyMs).toBeGreaterThanOrEqual(0)
    expect(answer.process.rssBytes).toBeGreaterThan(10_000_000)
    expect(typeof answer.sandbox.available).toBe("boolean")
    expect(answer.plugins.installed).toBeGreaterThanOrEqual(1)
    expect(answer.budget).toEqual({ todayUsd: 0, dayCeilingUsd: 20 })
    // The whole answer as the wire carried it, fields the contract does not list included.
    expect((await new Client(node.url).raw("GET", "/api/health")).text).not.toContain("sk-test-secret-key")
  })
})

describe("TRUST_PROXY 0 (the default)", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startNode({ trustProxy: 0 })
  })
  afterAll(() => node.close())

  it("ignores X-Forwarded-For: every request counts as the socket's address", async () => {
    const statuses: Array<number> = []
    for (let i = 0; i < 11; i++) {
      const client = new Client(node.url, { "x-forwarded-for": `192.0.2.${i}` })
      statuses.push((await refused(client.api.authPublic.login(badLogin))).status)
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true)
    expect(statuses[10]).toBe(429)
  })
})

describe("the llm class", () => {
  let node: TestNode
  beforeAll(async () => {
    node = await startNode()
  })
  afterAll(() => node.close())

  it("counts a skill call that spends model budget in the llm class, and only such a call", async () => {
    const owner = await registerOwner(node, { "x-forwarded-for": "10.9.9.6" })
    const invoke = (name: string, input: Record<string, unknown>) =>
      owner.client.api.studioSkills.invokeSkill({ payload: { name, input } })
    // Counted before the skill runs: with no model configured each call fails fast, and still counts.
    for (let i = 0; i < 30; i++) await run(invoke("llm.generate", { prompt: "Say hello." }))
    // The 31st read raw, for its Retry-After header.
    const over = await owner.client.raw("POST", "/api/studio/skills/invoke", {
      name: "llm.generate",
      input: { prompt: "Say hello." }
    })
    expect(over.status).toBe(429)
    expect(apiError(over).details).toMatchObject({ class: "llm" })
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0)
    const math = await run(invoke("math.evaluate", { expression: "1+1" }))
    expect(math.ok).toBe(true)
    // Starting a project shares the class.
    expect(
      (await refused(owner.client.api.studioProjects.createProject({ payload: { brief: "A haiku." } }))).status
    ).toBe(429)
  })
})

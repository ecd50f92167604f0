/**
 * GET /api/metrics on a real node: who may read it (the owner's session or the METRICS_TOKEN bearer, nobody else), and
 * that it shows what the node did — requests by route template and status, model calls and spend by tier, open live
 * sockets, the actors' mailboxes and the process's figures — in a text `promtool check metrics` accepts.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { spawnSync } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Models } from "../../extensions/models/contract/models.ts"
import { mailboxDepths } from "../../kernel/actors/mailbox-depths.ts"
import { LiveTab } from "../support/live.ts"
import { remoteDefault } from "../support/models.ts"
import { Client, registerMember, registerOwner, startNode, type TestNode } from "../support/node.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"

const token = "metrics-token-0123456789abcdef"

let remote: OpenAiServer
let node: TestNode
let owner: Awaited<ReturnType<typeof registerOwner>>
let member: Awaited<ReturnType<typeof registerMember>>

beforeAll(async () => {
  remote = await startOpenAiServer()
  node = await startNode({
    ...remoteDefault(remote.baseUrl, "sk-metrics-test-key"),
    metricsToken: Option.some(Redacted.make(token))
  })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(async () => {
  await node.close()
  await remote.close()
})

const scrape = (headers: Record<string, string> = {}, client = new Client(node.url)) =>
  client.raw("GET", "/api/metrics", undefined, headers)

/** The value of one sample line (`name{labels} value`), or undefined when the text has none. */
const sample = (text: string, series: string): number | undefined => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe("who may read GET /api/metrics", () => {
  it("refuses a caller with neither a session nor the token (401)", async () => {
    const answer = await scrape()
    expect(answer.status).toBe(401)
    expect(answer.body).toMatchObject({ error: "unauthorized" })
  })

  it("refuses a member's session (403): the figures are the owner's", async () => {
    const answer = await scrape({}, member.client)
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ error: "forbidden" })
    expect(answer.text).not.toContain("pos_")
  })

  it("refuses a wrong token (401), even beside the owner's cookie, and never echoes the token", async () => {
    const answer = await scrape({ authorization: "Bearer not-the-token" }, owner.client)
    expect(answer.status).toBe(401)
    expect(answer.body).toMatchObject({ error: "unauthorized" })
    expect(answer.text).not.toContain(token)
  })

  it("answers the token's bearer and the owner's session in Prometheus' text format, never cached", async () => {
    for (const answer of [await scrape({ authorization: `Bearer ${token}` }), await scrape({}, owner.client)]) {
      expect(answer.status).toBe(200)
      expect(answer.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8")
      expect(answer.headers["cache-control"]).toBe("no-store")
      expect(answer.text).not.toContain(token)
    }
  })
})

describe("what GET /api/metrics shows", () => {
  it("counts requests by method, route template and status, never by the path's ids", async () => {
    const before = await scrape({ authorization: `Bearer ${token}` })
    const series = 'pos_http_request_duration_seconds_count{method="GET",route="/api/auth/me",status="200"}'
    const counted = sample(before.text, series) ?? 0
    for (let i = 0; i < 3; i++) expect((await owner.client.raw("GET", "/api/auth/me")).status).toBe(200)
    expect((await new Client(node.url).raw("GET", "/api/auth/me")).status).toBe(401)
    await owner.client.raw("GET", "/api/studio/projects/no-such-project")

    const after = (await scrape({ authorization: `Bearer ${token}` })).text
    expect(sample(after, series)).toBe(counted + 3)
    expect(
      sample(after, 'pos_http_request_duration_seconds_count{method="GET",route="/api/auth/me",status="401"}')
    ).toBe(1)
    expect(after).toContain('route="/api/studio/projects/:id"')
    expect(after).not.toContain("no-such-project")
  })

  it("counts model calls, tokens and spend by tier", async () => {
    remote.script("chat", { content: "ok", usage: { promptTokens: 120, completionTokens: 30 } })
    await node.runtime.runPromise(
      Effect.flatMap(Models, (models) =>
        models.chat("standard", { messages: [{ role: "user", content: "Hi" }], purpose: "metrics test", beingId: null })
      )
    )
    const text = (await scrape({ authorization: `Bearer ${token}` })).text
    expect(sample(text, 'pos_model_calls_total{tier="standard",provider="remote"}')).toBe(1)
    expect(sample(text, 'pos_model_tokens_total{tier="standard",direction="prompt"}')).toBe(120)
    expect(sample(text, 'pos_model_tokens_total{tier="standard",direction="completion"}')).toBe(30)
    expect(sample(text, 'pos_model_spend_usd_total{tier="standard"}')).toBeGreaterThan(0)
    expect(sample(text, 'pos_model_call_duration_seconds_count{tier="standard"}')).toBe(1)
  })

  it("shows the open live sockets as they open and close", async () => {
    const tab = await LiveTab.open(node, owner.client)
    expect(sample((await scrape({ authorization: `Bearer ${token}` })).text, "pos_live_sockets")).toBe(1)
    expect(sample((await scrape({ authorization: `Bearer ${token}` })).text, "pos_live_beings")).toBe(1)
    tab.socket.close()
    await tab.closed
    await expect
      .poll(async () => sample((await scrape({ authorization: `Bearer ${token}` })).text, "pos_live_sockets"))
      .toBe(0)
  })

  it("shows the actors' mailboxes and the process: event-loop lag, heap, resident memory", async () => {
    const text = (await scrape({ authorization: `Bearer ${token}` })).text
    expect(text).toContain("# TYPE pos_actor_mailbox_depth gauge")
    const depths = await node.runtime.runPromise(mailboxDepths)
    expect(depths.every((depth) => typeof depth.kind === "string" && depth.depth > 0)).toBe(true)
    expect(sample(text, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0)
    expect(sample(text, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0)
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(0)
  })

  it("is text that promtool check metrics accepts", async () => {
    const text = (await scrape({ authorization: `Bearer ${token}` })).text
    const checked = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" })
    expect(checked.stdout + checked.stderr).toBe("")
    expect(checked.status).toBe(0)
  })
})

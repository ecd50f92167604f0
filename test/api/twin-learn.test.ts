/**
 * Learning, activity, status and env over real HTTP: the cheap tier extracts memories from a text
 * (structured output, scripted), near-duplicates of what the twin holds are skipped by vector
 * similarity, a `learned` activity is written and published, and every refusal changes nothing.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { ActivityLog } from "../../extensions/twin/contract/activity-log.ts"
import { inNode, LiveTab } from "../support/live.ts"
import { embedByMeaning } from "../support/meanings.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { expectOffsetPages } from "../support/offset-pages.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import {
  apiError,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let models: OpenAiServer
let node: TestNode
let owner: Registered

beforeAll(async () => {
  models = await startOpenAiServer()
  node = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({
      cheap: { baseUrl: models.baseUrl, model: "cheap-model" },
      embed: { baseUrl: models.baseUrl, model: "meaning-embed" }
    })
  })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  await models.close()
})
beforeEach(() => {
  models.reset()
  models.handle("embeddings", embedByMeaning([["dog", "retriever", "puppy"], ["tea", "oolong"], ["birthday"]]))
})

const extraction = (
  ...memories: ReadonlyArray<{ content: string; kind?: string; importance?: number; tags?: Array<string> }>
) => ({
  content: JSON.stringify({
    memories: memories.map((memory) => ({ kind: "fact", importance: 0.5, tags: [], ...memory }))
  })
})

const memoriesOf = (who: Registered) =>
  run(who.client.api.twin.searchMemories({ urlParams: { limit: 100, offset: 0 } }))

describe("POST /api/twin/learn", () => {
  it("stores the extracted memories with the source, publishes them and a learned activity, asks the cheap tier for structured output", async () => {
    const member = await registerMember(node, owner.client)
    const tab = await LiveTab.open(node, member.client)
    models.script(
      "chat",
      extraction(
        { content: "Ada's dog is a golden retriever named Biscuit.", importance: 0.7, tags: ["pets"] },
        { content: "Ada drinks oolong in the afternoon.", kind: "preference" }
      )
    )
    const learned = await run(
      member.client.api.twin.learn({ payload: { text: "Dear diary, Biscuit and I had oolong...", source: "journal" } })
    )
    expect(learned).toEqual([
      expect.objectContaining({
        content: "Ada's dog is a golden retriever named Biscuit.",
        kind: "fact",
        importance: 0.7,
        tags: ["pets"],
        source: "journal"
      }),
      expect.objectContaining({ content: "Ada drinks oolong in the afternoon.", kind: "preference", source: "journal" })
    ])

    const [asked] = models.requestsFor("chat")
    expect(asked?.model).toBe("cheap-model")
    expect(asked?.body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "memories" } })
    expect(JSON.stringify(asked?.body.messages)).toContain("Dear diary")

    const frames = await tab.upTo((frame) => frame.type === "twin.activity")
    expect(frames.filter((frame) => frame.type === "memory.created")).toEqual(
      learned.map((memory) => ({ type: "memory.created", memory }))
    )
    expect(frames.at(-1)).toMatchObject({
      type: "twin.activity",
      kind: "learned",
      summary: "Learned 2 memories from journal"
    })
    tab.close()

    const activity = await run(member.client.api.twin.listActivity({ urlParams: { offset: 0 } }))
    expect(activity).toEqual([
      expect.objectContaining({ beingId: member.being.id, kind: "learned", summary: "Learned 2 memories from journal" })
    ])
    expect(await memoriesOf(member)).toHaveLength(2)
  })

  it("skips a near-duplicate of a memory the twin holds (by meaning, not by the same words)", async () => {
    const member = await registerMember(node, owner.client)
    await run(
      member.client.api.twin.createMemory({ payload: { content: "Ada's dog is a golden retriever named Biscuit." } })
    )
    models.script(
      "chat",
      extraction({ content: "Biscuit is Ada's golden retriever puppy." }, { content: "Ada's birthday is in June." })
    )
    const learned = await run(
      member.client.api.twin.learn({ payload: { text: "Biscuit got a cake for Ada's birthday.", source: "chat" } })
    )
    expect(learned.map((memory) => memory.content)).toEqual(["Ada's birthday is in June."])
    expect((await memoriesOf(member)).map((memory) => memory.content).sort()).toEqual([
      "Ada's birthday is in June.",
      "Ada's dog is a golden retriever named Biscuit."
    ])
    const [latest] = await run(member.client.api.twin.listActivity({ urlParams: { kind: "learned", offset: 0 } }))
    expect(latest?.summary).toBe("Learned 1 memory from chat (1 already known)")
  })

  it("repairs an answer that does not fit once; one that still does not fit is 503 model_reply_invalid and stores nothing", async () => {
    const member = await registerMember(node, owner.client)
    models.script(
      "chat",
      extraction({ content: "Ada rows on Sundays.", kind: "rumour" }),
      extraction({ content: "Ada rows on Sundays." })
    )
    expect(
      (await run(member.client.api.twin.learn({ payload: { text: "Rowing again.", source: "journal" } }))).map(
        (m) => m.content
      )
    ).toEqual(["Ada rows on Sundays."])
    expect(JSON.stringify(models.requestsFor("chat")[1]?.body.messages)).toContain("does not fit the schema")

    const other = await registerMember(node, owner.client)
    models.script("chat", { content: '{"memories": [{"content": ""}]}' }, { content: '{"memories": "none"}' })
    const refusal = await refused(other.client.api.twin.learn({ payload: { text: "Hm.", source: "journal" } }))
    expect(refusal).toMatchObject({ status: 503, body: { error: "model_reply_invalid" } })
    expect(await memoriesOf(other)).toEqual([])
    expect(await run(other.client.api.twin.listActivity({ urlParams: { offset: 0 } }))).toEqual([])
  })

  it("refuses a blank text, a missing source, an unknown activity kind with 400, and a model failure with 503, changing nothing", async () => {
    const member = await registerMember(node, owner.client)
    for (const body of [
      { text: "  ", source: "journal" },
      { text: "Something." },
      { text: "x".repeat(20_001), source: "journal" },
      { text: "Hi", source: "" }
    ]) {
      const answer = await member.client.raw("POST", "/api/twin/learn", body)
      expect({ status: answer.status, error: apiError(answer).error }).toEqual({
        status: 400,
        error: "invalid_request"
      })
    }
    for (const path of ["/api/twin/activity?kind=gossip", "/api/twin/activity?limit=0"]) {
      expect((await member.client.raw("GET", path)).status).toBe(400)
    }
    models.script("chat", { error: { status: 500, message: "boom" } })
    expect(
      await refused(member.client.api.twin.learn({ payload: { text: "Something.", source: "journal" } }))
    ).toMatchObject({
      status: 503,
      body: { error: "model_failed" }
    })
    expect(models.requestsFor("chat")).toHaveLength(1)
    expect(await memoriesOf(member)).toEqual([])
    expect(await run(member.client.api.twin.listActivity({ urlParams: { offset: 0 } }))).toEqual([])
  })
})

describe("GET /api/twin/activity", () => {
  it("pages by `offset`, newest first: two pages are the list read at once; a bad offset is 400", async () => {
    const member = await registerMember(node, owner.client)
    const recorded = []
    for (const summary of ["one", "two", "three", "four", "five"]) {
      recorded.push(
        await inNode(
          node,
          Effect.flatMap(ActivityLog, (log) => log.record(member.being.id, "learned", summary))
        )
      )
    }
    const whole = await expectOffsetPages(member.client, "/api/twin/activity?kind=learned", 2, 5)
    const all = await run(member.client.api.twin.listActivity({ urlParams: { offset: 0 } }))
    expect(all.map((activity) => activity.id).slice(0, 4)).toEqual(whole)
    expect(all.map((activity) => activity.summary).sort()).toEqual(recorded.map((activity) => activity.summary).sort())
    for (const [at, activity] of all.entries()) {
      if (at > 0) expect(all[at - 1]!.at >= activity.at).toBe(true)
    }
  })
})

describe("POST /api/twin/reflect", () => {
  it("forces a pass: its insight lands on the caller's desktop, its widget is suggested, its thought is an activity", async () => {
    const member = await registerMember(node, owner.client)
    expect(await run(member.client.api.twin.reflect())).toEqual({ ran: false, signals: [], widgets: [], thought: null })
    expect(models.requestsFor("chat")).toEqual([])

    await run(member.client.api.twin.createMemory({ payload: { content: "Paddled the river on Sunday." } }))
    const tab = await LiveTab.open(node, member.client)
    models.script("chat", {
      content: JSON.stringify({
        thought: "You love being on the water.",
        insights: [{ title: "Book the kayak again?", body: "Sunday's paddle went well." }],
        widgets: [{ widgetType: "weather.forecast", reason: "You plan trips outdoors." }]
      })
    })
    const result = await run(member.client.api.twin.reflect())
    expect(result).toEqual({
      ran: true,
      signals: [expect.any(String)],
      widgets: [{ widgetType: "weather.forecast", reason: "You plan trips outdoors." }],
      thought: "You love being on the water."
    })
    const signals = await run(
      member.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 50, offset: 0 } })
    )
    expect(signals).toEqual([
      expect.objectContaining({
        id: result.signals[0],
        kind: "insight",
        title: "Book the kayak again?",
        source: "twin:reflection"
      })
    ])
    expect(await tab.next((frame) => frame.type === "widget.suggest")).toEqual({
      type: "widget.suggest",
      widgetType: "weather.forecast",
      reason: "You plan trips outdoors."
    })
    tab.close()
    expect(await run(member.client.api.twin.listActivity({ urlParams: { kind: "thought", offset: 0 } }))).toEqual([
      expect.objectContaining({ summary: "You love being on the water." })
    ])
    expect(
      await run(owner.client.api.desktop.listSignals({ urlParams: { status: "open", limit: 50, offset: 0 } }))
    ).not.toContainEqual(expect.objectContaining({ id: result.signals[0] }))
  })

  it("names the memories an insight was drawn from as its evidence: why was I nudged reads them now, a deleted one as gone", async () => {
    const member = await registerMember(node, owner.client)
    const memory = await run(
      member.client.api.twin.createMemory({ payload: { content: "Paddled the river on Sunday.\nThe water was calm." } })
    )
    models.script("chat", {
      content: JSON.stringify({
        thought: "Water again.",
        insights: [{ title: "Book the kayak?", body: "Sunday went well." }],
        widgets: []
      })
    })
    const [signalId] = (await run(member.client.api.twin.reflect())).signals
    const why = await run(member.client.api.twinHush.nudgeWhy({ path: { id: signalId! } }))
    expect(why).toMatchObject({
      title: "Book the kayak?",
      source: "twin:reflection",
      gate: { trigger: "proactive" },
      basedOn: ["memory: fact: Paddled the river on Sunday."],
      evidence: [
        {
          id: memory.id,
          kind: "memory",
          label: "fact: Paddled the river on Sunday.",
          snippet: memory.content,
          gone: false
        }
      ]
    })
    // Another being asking about it finds no such nudge; the memory itself stays the member's.
    expect((await owner.client.raw("GET", `/api/twin/nudges/${signalId}/why`)).status).toBe(404)

    await run(member.client.api.twin.deleteMemory({ path: { id: memory.id } }))
    const after = await run(member.client.api.twinHush.nudgeWhy({ path: { id: signalId! } }))
    expect(after.evidence).toEqual([{ id: memory.id, kind: "memory", label: "a memory since deleted", gone: true }])
    expect(after.basedOn).toEqual(["memory: deleted"])
  })
})

describe("status and env", () => {
  it("counts the caller's own memories and activity, and says the cheap and embed tiers are bound locally", async () => {
    const member = await registerMember(node, owner.client)
    await run(member.client.api.twin.createMemory({ payload: { content: "Ada's tea is oolong." } }))
    models.script("chat", extraction({ content: "Ada's birthday is in June." }))
    await run(member.client.api.twin.learn({ payload: { text: "June!", source: "chat" } }))
    expect(await run(member.client.api.twin.status())).toEqual({
      llm: { configured: true },
      counts: { memories: 2, files: 0, activity: 1, connections: 0 },
      providers: [
        expect.objectContaining({ provider: "mail_a", configured: false, connected: false }),
        expect.objectContaining({ provider: "files", configured: false, connected: false }),
        expect.objectContaining({ provider: "browser", configured: false, connected: false }),
        expect.objectContaining({ provider: "chat_a", configured: false, connected: false })
      ],
      embeddings: { available: true, embedded: 2, total: 2, leavesDevice: false, degraded: false, note: null }
    })
    expect(await run(member.client.api.twin.env())).toEqual({
      filesRoot: null,
      gmail: false,
      telegram: false,
      llm: true
    })
    expect((await fetch(`${node.url}/api/twin/status`)).status).toBe(401)
  })
})

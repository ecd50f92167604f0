/**
 * The square over real HTTP and real sockets: posts with their affect, `square.post` to everyone,
 * `ambient` carrying the mean mood of the recent posts; the square's life (tick and greet) is the
 * owner's, in character from the cheap tier (scripted model server, structured output, spend
 * recorded) or from templates with no model bound.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { citizens } from "../../seeds/citizens.ts"
import { hardRules } from "../../extensions/souls/compile.ts"
import { LiveTab } from "../support/live.ts"
import { noModelSettings, tierSettings } from "../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import {
  apiError,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"

let bare: { node: TestNode; owner: Registered; member: Registered }
let modelled: { node: TestNode; owner: Registered }
let models: OpenAiServer

beforeAll(async () => {
  models = await startOpenAiServer()
  const node = await startNode({ ...noModelSettings })
  const owner = await registerOwner(node)
  bare = { node, owner, member: await registerMember(node, owner.client) }
  const withModel = await startNode({
    ...noModelSettings,
    llmTiers: tierSettings({ cheap: { baseUrl: models.baseUrl, model: "cheap-model" } })
  })
  modelled = { node: withModel, owner: await registerOwner(withModel) }
})
afterAll(async () => {
  await bare.node.close()
  await modelled.node.close()
  await models.close()
})
beforeEach(() => models.reset())

const llmCalls = (node: TestNode) =>
  node.runtime.runPromise(
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) => sql<{ purpose: string; tier: string }>`SELECT purpose, tier FROM llm_calls`
    )
  )

const citizenIds = new Set(citizens.map((citizen) => citizen.beingId))

describe("POST /api/beings/square", () => {
  it("posts with the text's affect, publishes it to everyone, then the square's mood", async () => {
    const { owner, member, node } = bare
    expect(await run(member.client.api.beings.squareMood())).toEqual({ valence: 0, arousal: 0.3, label: "calm" })
    const tab = await LiveTab.open(node, owner.client)
    const post = await run(
      member.client.api.beings.post({ payload: { content: "What a wonderful, happy morning! I love this square." } })
    )
    expect(post).toMatchObject({
      threadKind: "square",
      authorId: member.being.id,
      authorName: member.being.displayName,
      content: "What a wonderful, happy morning! I love this square."
    })
    expect(post.mood.valence).toBeGreaterThan(0.5)
    const published = await tab.nextOf("square.post")
    expect(published.post).toEqual(post)
    const ambient = await tab.nextOf("ambient")
    expect(ambient.mood).toEqual({ valence: post.mood.valence, arousal: post.mood.arousal, label: post.mood.label })

    const sad = await run(
      owner.client.api.beings.post({ payload: { content: "Awful news today. I am sad and worried." } })
    )
    const mean = await tab.nextOf("ambient")
    expect(mean.mood.valence).toBeCloseTo((post.mood.valence + sad.mood.valence) / 2, 2)
    await tab.close()

    const feed = await run(member.client.api.beings.square())
    expect(feed.slice(0, 2).map((item) => item.id)).toEqual([sad.id, post.id])
    // A place opening asks for the mood the last ambient carried.
    expect(await run(member.client.api.beings.squareMood())).toEqual(mean.mood)
  })

  it("refuses an empty, oversize or over-specified post with 400 and publishes nothing", async () => {
    const { member } = bare
    const before = await run(member.client.api.beings.square())
    for (const body of [
      { content: "   " },
      { content: "x".repeat(1001) },
      { content: "hi", authorId: bare.owner.being.id }
    ]) {
      const answer = await member.client.raw("POST", "/api/beings/square", body)
      expect([answer.status, apiError(answer).error]).toEqual([400, "invalid_request"])
    }
    expect(await run(member.client.api.beings.square())).toEqual(before)
  })
})

describe("POST /api/beings/life/tick and /greet with no model bound", () => {
  it("refuses anyone but the owner with 403", async () => {
    for (const path of ["/api/beings/life/tick", "/api/beings/life/greet"]) {
      const answer = await bare.member.client.raw("POST", path)
      expect([answer.status, apiError(answer).error]).toEqual([403, "forbidden"])
    }
  })

  it("has a few citizens post from their templates, published to everyone, with no model call", async () => {
    const { owner, member, node } = bare
    const tab = await LiveTab.open(node, member.client)
    const { posts } = await run(owner.client.api.beings.lifeTick())
    expect(posts).toHaveLength(3)
    for (const post of posts) {
      expect(citizenIds.has(post.authorId)).toBe(true)
      const citizen = citizens.find((candidate) => candidate.beingId === post.authorId)!
      expect(citizen.posts).toContain(post.content)
      expect(post.authorName).toBe(citizen.persona.name)
    }
    for (const post of posts)
      expect((await tab.nextOf("square.post", (frame) => frame.post.id === post.id)).post).toEqual(post)
    await tab.close()
    expect(await llmCalls(node)).toEqual([])
  })

  it("greets the owner by name", async () => {
    const { posts } = await run(bare.owner.client.api.beings.lifeGreet())
    expect(posts).toHaveLength(3)
    for (const post of posts) expect(post.content).toContain(bare.owner.being.displayName)
  })
})

describe("POST /api/beings/life/tick with the cheap tier bound", () => {
  it("asks the cheap tier for a structured post in each citizen's own soul, records the spend, and posts the answers", async () => {
    const lines = [
      "The light on the square is lovely today.",
      "Finished a small thing. Feels good.",
      "Anyone up for a walk later?"
    ]
    models.script("chat", ...lines.map((post) => ({ content: JSON.stringify({ post }) })))
    const { posts } = await run(modelled.owner.client.api.beings.lifeTick())
    expect(posts.map((post) => post.content)).toEqual(lines)

    const asked = models.requestsFor("chat")
    expect(asked).toHaveLength(3)
    for (const [index, request] of asked.entries()) {
      expect(request.model).toBe("cheap-model")
      expect(request.body.response_format).toMatchObject({ type: "json_schema", json_schema: { name: "square_post" } })
      const system = String(request.body.messages?.[0]?.content)
      expect(system).toContain(`You are ${posts[index]!.authorName}`)
      for (const rule of hardRules) expect(system).toContain(rule)
    }
    const calls = await llmCalls(modelled.node)
    expect(calls).toHaveLength(3)
    expect(calls.every((call) => call.purpose === "square life" && call.tier === "cheap")).toBe(true)
  })

  it("falls back to a citizen's template when the answer does not fit", async () => {
    models.script(
      "chat",
      { content: JSON.stringify({ post: "" }) },
      { content: "not json at all" },
      { content: JSON.stringify({ post: "Fine words." }) }
    )
    const { posts } = await run(modelled.owner.client.api.beings.lifeTick())
    const [first, second, third] = posts
    expect(citizens.find((citizen) => citizen.beingId === first!.authorId)!.posts).toContain(first!.content)
    expect(citizens.find((citizen) => citizen.beingId === second!.authorId)!.posts).toContain(second!.content)
    expect(third!.content).toBe("Fine words.")
  })
})

/**
 * web.research end to end on loopback: a SearXNG stand-in whose hits point at local pages, the
 * host's real network adapter (private addresses allowed, as the owner may), and the scripted
 * OpenAI-protocol server as the model.
 */
import * as Option from "effect/Option"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { remoteDefault } from "../../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"
import { at } from "../../support/json.ts"

const pages: Record<string, string> = {
  "/tides":
    "<html><head><title>Tides</title></head><body><p>The moon's pull raises the tides twice a day.</p></body></html>",
  "/spring":
    "<html><head><title>Spring tides</title></head><body><p>Spring tides come at new and full moon.</p></body></html>",
  "/plain": "Neap tides are the weakest."
}

let hits: ReadonlyArray<string> = []
const site = createServer((request, response) => {
  const url = new URL(request.url ?? "/", "http://stand-in")
  if (url.pathname === "/searxng/search") {
    return response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        results: hits.map((path, index) => ({ url: `${base}${path}`, title: `Hit ${index + 1}`, content: "snippet" }))
      })
    )
  }
  const page = pages[url.pathname]
  if (page === undefined) return response.writeHead(404, { "content-type": "text/plain" }).end("gone")
  return response.writeHead(200, { "content-type": url.pathname === "/plain" ? "text/plain" : "text/html" }).end(page)
})

let base: string
let model: OpenAiServer
let skills: SkillHarness
let searchless: SkillHarness

beforeAll(async () => {
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
  model = await startOpenAiServer()
  skills = await startSkills({
    settings: { ...remoteDefault(model.baseUrl), webAllowPrivate: true, searchUrl: Option.some(`${base}/searxng`) }
  })
  searchless = await startSkills({ settings: { ...remoteDefault(model.baseUrl), searchUrl: Option.none() } })
})
afterAll(async () => {
  await Promise.all([skills.close(), searchless.close(), model.close()])
  site.closeAllConnections()
  await new Promise((resolve) => site.close(resolve))
})
beforeEach(() => model.reset())

describe("web.research", () => {
  it("searches, reads the top sources and answers from them, citing them by address", async () => {
    hits = ["/tides", "/spring", "/plain", "/missing"]
    model.script("chat", {
      content: `The moon raises the tides [${base}/tides]; spring tides come at new and full moon [${base}/spring].`
    })
    const outcome = await skills.invoke("web.research", { question: "Why are there tides?", maxSources: 3 })
    expect(outcome).toMatchObject({ ok: true })
    expect(outcome.output).toEqual({
      answer: `The moon raises the tides [${base}/tides]; spring tides come at new and full moon [${base}/spring].`,
      sources: [
        { url: `${base}/tides`, title: "Tides" },
        { url: `${base}/spring`, title: "Spring tides" },
        { url: `${base}/plain`, title: "Hit 3" }
      ]
    })
    const [asked] = model.requestsFor("chat")
    const [system, user] = asked.body.messages!
    expect(system.content).toContain("Cite each claim with the address of its source")
    expect(user.content).toContain("Question: Why are there tides?")
    expect(user.content).toContain(`[1] Tides\n${base}/tides\nThe moon's pull raises the tides twice a day.`)
    expect(user.content).toContain(`[3] Hit 3\n${base}/plain\nNeap tides are the weakest.`)
    expect(user.content).not.toContain("/missing")
  })

  it("leaves out a source it cannot read and names it in the note", async () => {
    hits = ["/tides", "/missing"]
    const outcome = await skills.invoke("web.research", { question: "Tides?" })
    expect(at(outcome.output, "sources")).toEqual([{ url: `${base}/tides`, title: "Tides" }])
    expect(at(outcome.output, "note")).toBe(`Not read: ${base}/missing (HTTP 404).`)
  })

  it("answers from the model alone, saying so, when no search provider is configured", async () => {
    model.script("chat", { content: "From memory: the moon." })
    const outcome = await searchless.invoke("web.research", { question: "Why are there tides?" })
    expect(outcome).toMatchObject({
      ok: true,
      output: {
        answer: "From memory: the moon.",
        sources: [],
        note: "No search provider is configured (set SEARCH_URL), so this answer comes from the model alone, unchecked against any source."
      }
    })
    const [system, user] = model.requestsFor("chat")[0].body.messages!
    expect(system.content).toContain("No sources could be checked")
    expect(user).toEqual({ role: "user", content: "Why are there tides?" })
  })

  it("answers from the model alone when no source can be read", async () => {
    hits = ["/missing"]
    const outcome = await skills.invoke("web.research", { question: "Tides?" })
    expect(at(outcome.output, "sources")).toEqual([])
    expect(at(outcome.output, "note")).toBe(
      `Not read: ${base}/missing (HTTP 404). None of the sources found could be read, so this answer comes from the model alone, unchecked against any source.`
    )
  })

  it("fails plainly without a model, and refuses maxSources outside 1..8", async () => {
    const unconfigured = await startSkills({
      settings: { webAllowPrivate: true, searchUrl: Option.some(`${base}/searxng`) }
    })
    try {
      hits = ["/tides"]
      expect(await unconfigured.invoke("web.research", { question: "Tides?" })).toMatchObject({
        ok: false,
        error: expect.stringContaining("No model is bound to the 'standard' tier")
      })
    } finally {
      await unconfigured.close()
    }
    expect(await skills.invoke("web.research", { question: "Tides?", maxSources: 9 })).toMatchObject({ ok: false })
    expect(await skills.invoke("web.research", { question: "Tides?", maxSources: 0 })).toMatchObject({ ok: false })
  })
})

import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/world/world-place.ts"
import type { WorldPlace } from "../../ui/places/world/world-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { byText, fakeNode, fill, find, held, refusal, textOf, until } from "./support/fake-node.ts"
import { owner } from "./support/records.ts"

const calm = { valence: 0.2, arousal: 0.3, label: "calm" }
const post = (id: string, content: string, createdAt: string) => ({
  id,
  threadKind: "square",
  authorId: "b-bo",
  authorName: "Bo",
  content,
  mood: calm,
  createdAt
})
const routes = (over: Record<string, unknown> = {}) => ({
  "GET /api/beings/square": { json: [post("p1", "Fresh bread today", "2026-01-05T09:00:00.000Z")] },
  "GET /api/beings/square/mood": { json: calm },
  ...over
})

const make = async () => {
  const live = fakeLive()
  const el = await fixture<WorldPlace>(html`<world-place .being=${owner}></world-place>`)
  live.hello()
  return { el, live }
}

describe("<world-place>", () => {
  it("says it is loading, then shows the square's posts and how it feels, tinted by its mood", async () => {
    const feed = held()
    fakeNode(routes({ "GET /api/beings/square": feed.answer }))
    const { el } = await make()
    await until(() => textOf(el).includes("Loading the square…"))
    feed.release({ json: [post("p1", "Fresh bread today", "2026-01-05T09:00:00.000Z")] })
    await until(() => textOf(el).includes("Fresh bread today"))
    expect(textOf(el)).to.contain("The square feels calm.")
    expect(el.dataset.mood).to.equal("calm")
    expect(el.shadowRoot!.querySelector('li[data-post="p1"] a')!.getAttribute("href")).to.equal("/beings/b-bo")
    await expect(el).to.be.accessible()
  })

  it("says a quiet square is quiet, and a failed load in the node's words", async () => {
    fakeNode(routes({ "GET /api/beings/square": { json: [] } }))
    const { el } = await make()
    await until(() => textOf(el).includes("The square is quiet."))
    fakeNode(routes({ "GET /api/beings/square": refusal(500, "internal", "The node failed.") }))
    const failed = await fixture<WorldPlace>(html`<world-place .being=${owner}></world-place>`)
    await until(() => textOf(failed).includes("The node failed"))
  })

  it("adds posts, drops retracted ones and changes its mood, live", async () => {
    fakeNode(routes())
    const { el, live } = await make()
    await until(() => textOf(el).includes("Fresh bread today"))
    live.send({ type: "square.post", post: post("p2", "Rain at noon", "2026-01-05T10:00:00.000Z") })
    await until(() => textOf(el).includes("Rain at noon"))
    const text = textOf(el)
    expect(text.indexOf("Rain at noon")).to.be.lessThan(text.indexOf("Fresh bread today"))
    live.send({ type: "square.retracted", postId: "p1" })
    await until(() => !textOf(el).includes("Fresh bread today"))
    live.send({ type: "ambient", mood: { valence: 0.8, arousal: 0.9, label: "festive" } })
    await until(() => el.dataset.mood === "festive")
  })
  it("empties the composer once a post is taken, but keeps words typed while it was on its way", async () => {
    const sending = held()
    const node = fakeNode(routes({ "POST /api/beings/square": sending.answer }))
    const { el } = await make()
    await until(() => textOf(el).includes("Fresh bread today"))
    const field = find<HTMLTextAreaElement>(el, 'textarea[name="content"]')
    fill(el, { content: "First words" })
    byText(el, "button", "Post to the square").click()
    await node.request("POST /api/beings/square")
    fill(el, { content: "Second words, typed meanwhile" })
    sending.release({ json: post("p2", "First words", "2026-01-05T10:00:00.000Z") })
    await until(() => textOf(el).includes("First words"))
    expect(field.value).to.equal("Second words, typed meanwhile")

    node.routes["POST /api/beings/square"] = { json: post("p3", "Second words", "2026-01-05T10:01:00.000Z") }
    byText(el, "button", "Post to the square").click()
    await until(() => field.value === "")
    expect(node.to("POST /api/beings/square").map((sent) => sent.body)).to.deep.equal([
      { content: "First words" },
      { content: "Second words, typed meanwhile" }
    ])
  })
})

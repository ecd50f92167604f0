import { expect, fixture, html } from "@open-wc/testing"
import "../../ui/places/muse/muse-place.ts"
import type { MusePlace } from "../../ui/places/muse/muse-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { byText, fakeNode, held, paged, refusal, textOf, until } from "./support/fake-node.ts"
import { owner, thread } from "./support/records.ts"

const threads = "GET /api/threads"
const older = thread({ id: "th1", preview: "About tea", lastMessageAt: "2026-01-05T09:10:00.000Z" })
const newer = thread({
  id: "th2",
  preview: "About bread",
  lastMessageAt: "2026-01-06T09:10:00.000Z",
  createdAt: "2026-01-06T09:00:00.000Z"
})

/** The muse threads load at the live channel's hello, as in the app. */
const make = async (threadId = "") => {
  const live = fakeLive()
  const el = await fixture<MusePlace>(html`<muse-place .being=${owner} threadId=${threadId}></muse-place>`)
  live.hello()
  return { el, live }
}
const open = (el: MusePlace) => el.shadowRoot!.querySelector("thread-conversation")

describe("<muse-place>", () => {
  it("says it is loading, then opens the newest muse thread, with a switch between them", async () => {
    const list = held()
    const node = fakeNode({
      [threads]: list.answer,
      "GET /api/threads/th2/messages": { json: [] },
      "GET /api/threads/th1/messages": { json: [] }
    })
    const { el } = await make()
    expect(textOf(el)).to.contain("Loading your Muse…")
    list.release({ json: [newer, older] })
    await until(() => open(el) !== null)
    expect(node.to(threads)[0]!.search.get("kind")).to.equal("muse")
    expect(open(el)!.thread!.id).to.equal("th2")
    const select = el.shadowRoot!.querySelector("select")!
    expect(Array.from(select.options).map((o) => o.value)).to.deep.equal(["th2", "th1"])
    expect(select.selectedOptions[0]!.textContent).to.contain("About bread")
    await expect(el).to.be.accessible()
  })

  it("opens the thread its address names", async () => {
    fakeNode({
      [threads]: paged([newer, older]),
      "GET /api/threads/th1": { json: older },
      "GET /api/threads/th1/messages": { json: [] }
    })
    const { el } = await make("th1")
    await until(() => open(el)?.thread?.id === "th1")
  })

  it("offers the newest 50 conversations, the next ones on Show more, and keeps an older one the address names", async () => {
    const many = Array.from({ length: 60 }, (_, at) =>
      thread({
        id: `th-${at}`,
        preview: `Words ${at}`,
        createdAt: `2026-01-05T09:${String(59 - at).padStart(2, "0")}:00.000Z`
      })
    )
    const node = fakeNode({
      [threads]: paged(many),
      "GET /api/threads/th-57": { json: many[57] },
      "GET /api/threads/th-57/messages": { json: [] }
    })
    const { el } = await make("th-57")
    const options = () =>
      Array.from(el.shadowRoot!.querySelectorAll("select option")).map((o) => o.getAttribute("value"))
    await until(() => open(el)?.thread?.id === "th-57")
    await until(() => options().length === 51)
    expect(options().at(-1)).to.equal("th-57")
    expect(node.to(threads)[0]!.search.get("limit")).to.equal("50")
    byText(el, "button", "Show more conversations").click()
    await until(() => options().length === 60)
    expect(options()).to.deep.equal(many.map((t) => t.id))
    expect(el.shadowRoot!.querySelector("button.show-more")).to.equal(null)
  })

  it("with no thread yet shows no conversation, and a failed load in the node's words", async () => {
    fakeNode({ [threads]: { json: [] } })
    const { el } = await make()
    await until(() => !textOf(el).includes("Loading your Muse…"))
    expect(open(el)).to.equal(null)
    expect(byText(el, "button", "New conversation")).to.exist
    fakeNode({ [threads]: refusal(500, "internal", "The node failed.") })
    const failed = await fixture<MusePlace>(html`<muse-place .being=${owner}></muse-place>`)
    await until(() => textOf(failed).includes("The node failed"))
  })

  it("starts a new conversation and opens it", async () => {
    const started = thread({ id: "th3", createdAt: "2026-01-07T09:00:00.000Z" })
    let mine = [older]
    const node = fakeNode({
      [threads]: paged(() => mine),
      "POST /api/threads": () => {
        mine = [started, older]
        return { json: started }
      },
      "GET /api/threads/th3": { json: started },
      "GET /api/threads/th1/messages": { json: [] },
      "GET /api/threads/th3/messages": { json: [] }
    })
    const { el } = await make()
    await until(() => open(el) !== null)
    byText(el, "button", "New conversation").click()
    expect((await node.request("POST /api/threads")).body).to.deep.equal({ kind: "muse" })
    // The app's router sets `threadId` from the new address; here the test does.
    await until(() => el.shadowRoot!.querySelectorAll("select option").length === 2)
    history.replaceState(null, "", location.pathname)
    el.threadId = "th3"
    await until(() => open(el)?.thread?.id === "th3")
  })

  it("keeps the list current as threads change, live", async () => {
    let mine = [older]
    const node = fakeNode({ [threads]: paged(() => mine), "GET /api/threads/th1/messages": { json: [] } })
    const { el, live } = await make()
    await until(() => open(el) !== null)
    // The list is read again, from the top, at a muse thread's news.
    mine = [newer, older]
    live.send({ type: "thread.updated", thread: newer })
    await until(() => el.shadowRoot!.querySelectorAll("select option").length === 2)
    const reads = node.to(threads).length
    live.send({ type: "thread.updated", thread: thread({ id: "th9", kind: "direct", title: "Bo" }) })
    await el.updateComplete
    expect(node.to(threads).length).to.equal(reads)
    expect(el.shadowRoot!.querySelectorAll("select option").length).to.equal(2)
  })
})

import { expect, fixture, html, oneEvent } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import "../../ui/places/messages/messages-place.ts"
import type { MessagesPlace } from "../../ui/places/messages/messages-place.ts"
import { fakeLive } from "./support/fake-live.ts"
import { byText, fakeNode, find, held, paged, refusal, textOf, until } from "./support/fake-node.ts"
import { navigations, owner, thread } from "./support/records.ts"

const person = { ...owner, id: "b-ada", isOwner: false }
const bo = {
  id: "b-bo",
  kind: "human",
  handle: "bo",
  displayName: "Bo",
  isOwner: false,
  createdAt: "2026-01-03T10:00:00.000Z",
  online: true
}
const direct = thread({
  id: "th2",
  kind: "direct",
  title: "Bo",
  participants: ["b-ada", "b-bo"],
  replyPolicy: "being",
  preview: "See you",
  lastMessageAt: "2026-01-06T09:00:00.000Z"
})
const muse = thread({ id: "th1", preview: "About tea", lastMessageAt: "2026-01-05T09:00:00.000Z" })
const routes = (over: Record<string, unknown> = {}) => ({
  "GET /api/threads": paged([direct, muse]),
  "GET /api/beings": { json: [bo] },
  "GET /api/threads/th2": { json: direct },
  "GET /api/threads/th2/messages": { json: [] },
  ...over
})

const make = async (threadId = "") => {
  const live = fakeLive()
  const el = await fixture<MessagesPlace>(html`<messages-place .being=${person} threadId=${threadId}></messages-place>`)
  live.hello()
  return { el, live }
}
const inbox = (el: MessagesPlace) => el.shadowRoot!.querySelector("section.list")!

describe("<messages-place>", () => {
  const went = navigations()

  it("says it is loading, then lists the inbox newest first with each thread's kind and who answers", async () => {
    const list = held()
    fakeNode(routes({ "GET /api/threads": list.answer }))
    const { el } = await make()
    expect(textOf(el)).to.contain("Loading conversations…")
    list.release({ json: [direct, muse] })
    await until(() => textOf(inbox(el)).includes("See you"))
    const text = textOf(inbox(el))
    expect(text.indexOf("See you")).to.be.lessThan(text.indexOf("About tea"))
    expect(text).to.contain("The Muse answers")
    expect(textOf(el)).to.contain("Open a conversation from the inbox, or start one.")
    await expect(el).to.be.accessible()
  })

  it("opens the thread its address names, and says when it is not among the person's", async () => {
    fakeNode(routes())
    const { el } = await make("th2")
    await until(() => el.shadowRoot!.querySelector("thread-conversation")?.thread?.id === "th2")
    expect(el.shadowRoot!.querySelector(".layout")!.getAttribute("data-open")).to.equal("thread")
    const gone = await fixture<MessagesPlace>(html`<messages-place .being=${person} threadId="th404"></messages-place>`)
    await until(() => textOf(gone).includes("That conversation is not among yours"))
  })

  it("starts a direct conversation with a being picked from the list", async () => {
    const node = fakeNode(routes({ "POST /api/threads": { json: direct } }))
    const { el } = await make()
    await until(() => el.shadowRoot!.querySelector('select[name="withBeingId"]') !== null)
    byText(el, "button", "Start").click()
    expect((await node.request("POST /api/threads")).body).to.deep.equal({ kind: "direct", withBeingId: "b-bo" })
    await until(() => went.includes("/messages?thread=th2"))
  })

  it("leaves a thread after a confirmation; Escape keeps it", async () => {
    let left = false
    const node = fakeNode(
      routes({
        "GET /api/threads": paged(() => (left ? [muse] : [direct, muse])),
        "DELETE /api/threads/th2": () => {
          left = true
          return { json: { ok: true } }
        }
      })
    )
    const { el } = await make("th2")
    await until(() => textOf(el).includes("Leave"))
    byText(el, "button", "Leave").click()
    const dialog = find<HTMLDialogElement>(find(el, "confirm-dialog").shadowRoot!, "dialog")
    await until(() => dialog.open)
    expect(textOf(dialog)).to.contain("Leave the conversation with Bo?")
    const closed = oneEvent(dialog, "close")
    await sendKeys({ press: "Escape" })
    await closed
    expect(node.to("DELETE /api/threads/th2")).to.have.length(0)
    byText(el, "button", "Leave").click()
    await until(() => dialog.open)
    find<HTMLButtonElement>(dialog, 'button[value="confirm"]').click()
    await node.request("DELETE /api/threads/th2")
    await until(() => went.includes("/messages"))
    await until(() => !textOf(inbox(el)).includes("See you"))
  })

  it("says a failed load in the node's words, and follows thread.updated live", async () => {
    fakeNode(routes({ "GET /api/threads": refusal(503, "unavailable", "The node is starting.") }))
    const { el: failed } = await make()
    await until(() => textOf(failed).includes("The node is starting."))

    let threads = [muse]
    const node = fakeNode(routes({ "GET /api/threads": paged(() => threads) }))
    const { el, live } = await make()
    await until(() => textOf(inbox(el)).includes("About tea"))
    // The inbox is read again, from the top: the thread with the news comes first.
    const updated = { ...direct, preview: "New words" }
    threads = [updated, muse]
    live.send({ type: "thread.updated", thread: updated })
    await until(() => textOf(inbox(el)).includes("New words"))
    expect(node.to("GET /api/threads").at(-1)!.search.get("offset")).to.equal("0")
    const text = textOf(inbox(el))
    expect(text.indexOf("New words")).to.be.lessThan(text.indexOf("About tea"))
  })

  it("shows the newest 50 conversations, the next ones on Show more, and opens an older one by its id", async () => {
    const many = Array.from({ length: 60 }, (_, at) =>
      thread({ id: `th-${at}`, kind: "direct", title: `Being ${at}`, replyPolicy: "being", preview: `Words ${at}` })
    )
    const node = fakeNode(
      routes({
        "GET /api/threads": paged(many),
        "GET /api/threads/th-55": { json: many[55] },
        "GET /api/threads/th-55/messages": { json: [] }
      })
    )
    const { el } = await make("th-55")
    await until(() => inbox(el).querySelectorAll("li").length === 50)
    expect(node.to("GET /api/threads")[0]!.search.get("limit")).to.equal("50")
    // The address names a thread older than the page shown: it opens all the same.
    await until(() => el.shadowRoot!.querySelector("thread-conversation")?.thread?.id === "th-55")
    byText(el, "button", "Show more conversations").click()
    await until(() => inbox(el).querySelectorAll("li").length === 60)
    expect(textOf(inbox(el))).to.contain("Words 59")
    // The list ended (a page shorter than asked): nothing more to show.
    expect(inbox(el).querySelector("button.show-more")).to.equal(null)
  })

  it("marks a federated conversation however many the owner has, reading them a page of 200 at a time", async () => {
    const conversations = Array.from({ length: 230 }, (_, at) => ({
      threadId: at === 220 ? "th2" : `far-${at}`,
      peerDid: "did:key:z6MkPeer",
      peerName: "Bo's node",
      remoteDid: `did:key:z6MkRemote${at}`,
      remoteCurrent: true,
      remoteHandle: null,
      petname: null,
      localBeingId: "b-owner",
      queued: at === 220 ? 2 : 0,
      stuck: 0,
      createdAt: "2026-01-04T10:00:00.000Z"
    }))
    const node = fakeNode(
      routes({
        "GET /api/federation/conversations": paged(conversations),
        "GET /api/federation/peers": paged([])
      })
    )
    const live = fakeLive()
    const el = await fixture<MessagesPlace>(html`<messages-place .being=${owner}></messages-place>`)
    live.hello()
    await until(() => textOf(inbox(el)).includes("2 queued"))
    expect(textOf(inbox(el))).to.contain("via Bo's node")
    expect(node.to("GET /api/federation/conversations").map((sent) => sent.search.toString())).to.deep.equal([
      "limit=200&offset=0",
      "limit=200&offset=200"
    ])
  })
})

import { expect, fixture, html } from "@open-wc/testing"
import { sendKeys } from "@web/test-runner-commands"
import type { Message, Thread } from "../../extensions/threads/contract/records.ts"
import "../../ui/components/thread-conversation.ts"
import type { ThreadConversation } from "../../ui/components/thread-conversation.ts"
import { fakeLive } from "./support/fake-live.ts"
import { fakeNode, held, refusal, textOf, until } from "./support/fake-node.ts"

const thread: Thread = {
  id: "t1",
  kind: "muse",
  title: "Iris",
  participants: ["b-owner"],
  replyPolicy: "muse",
  preview: null,
  lastMessageAt: null,
  createdAt: "2026-01-05T09:00:00.000Z"
}

const message = (id: string, over: Partial<Message> = {}): Message => ({
  id,
  threadId: "t1",
  role: "user",
  authorId: "b-owner",
  content: `Message ${id}`,
  attachments: [],
  toolCalls: [],
  createdAt: `2026-01-05T09:0${id.length}:00.000Z`,
  ...over
})

const messages = "GET /api/threads/t1/messages"
const post = "POST /api/threads/t1/messages"

/** The messages load at the live channel's hello (and at each one after), as in the app. */
const make = async (over: Partial<Thread> = {}) => {
  const live = fakeLive()
  const el = await fixture<ThreadConversation>(
    html`<thread-conversation .thread=${{ ...thread, ...over }} selfId="b-owner"></thread-conversation>`
  )
  live.hello()
  return el
}

const textarea = (el: ThreadConversation) => el.shadowRoot!.querySelector("textarea")!

describe("<thread-conversation>", () => {
  it("says it is loading, then shows the messages, the Muse's as markdown", async () => {
    const list = held()
    fakeNode({ [messages]: list.answer })
    const el = await make()
    expect(textOf(el)).to.contain("Loading messages…")
    list.release({
      json: [
        message("m1", { content: "Hello" }),
        message("m22", { role: "assistant", authorId: null, content: "**Hi** there" })
      ]
    })
    await until(() => el.shadowRoot!.querySelectorAll("li.message").length === 2)
    expect(textOf(el)).not.to.contain("Loading messages…")
    expect(el.shadowRoot!.querySelector("li.message strong")?.textContent).to.equal("Hi")
    expect(textOf(el)).to.contain("You")
    await expect(el).to.be.accessible()
  })

  it("says an empty thread is empty, and a failed load in the node's words", async () => {
    fakeNode({ [messages]: { json: [] } })
    const empty = await make()
    await until(() => textOf(empty).includes("No messages yet. Write the first one below."))
    fakeNode({ "GET /api/threads/t2/messages": refusal(404, "not_found", "No such thread.") })
    const failed = await make({ id: "t2" })
    await until(() => textOf(failed).includes("No such thread."))
  })

  it("Enter sends, Shift+Enter starts a new line, and the controls rest on the way", async () => {
    const answer = held()
    const node = fakeNode({ [messages]: { json: [] }, [post]: answer.answer })
    const el = await make()
    await until(() => textOf(el).includes("No messages yet"))
    const send = el.shadowRoot!.querySelector<HTMLButtonElement>("button[type=submit]")!
    expect(send.disabled).to.equal(true)
    textarea(el).focus()
    await sendKeys({ type: "Tea" })
    await sendKeys({ press: "Shift+Enter" })
    await sendKeys({ type: "now?" })
    expect(node.to(post)).to.have.length(0)
    await sendKeys({ press: "Enter" })
    expect((await node.request(post)).body).to.deep.equal({ content: "Tea\nnow?" })
    await el.updateComplete
    expect(textarea(el).disabled).to.equal(true)
    expect(send.textContent).to.equal("Sending…")
    answer.release({ json: message("m3", { content: "Tea\nnow?" }) })
    await until(() => el.shadowRoot!.querySelectorAll("li.message").length === 1)
    expect(textarea(el).value).to.equal("")
    expect(el.shadowRoot!.activeElement).to.equal(textarea(el))
  })

  it("keeps the draft and says why when the node refuses it", async () => {
    fakeNode({ [messages]: { json: [] }, [post]: refusal(409, "conflict", "This thread is closed.") })
    const el = await make()
    textarea(el).focus()
    await sendKeys({ type: "Hello" })
    await sendKeys({ press: "Enter" })
    await until(() => textOf(el).includes("This thread is closed."))
    expect(textarea(el).value).to.equal("Hello")
  })

  it("attaches uploads picked from the list, and says when there are none", async () => {
    const node = fakeNode({
      [messages]: { json: [] },
      "GET /api/files": {
        json: [
          {
            id: "f1",
            beingId: "b-owner",
            path: "notes.md",
            name: "notes.md",
            ext: "md",
            size: 12,
            mtime: "2026-01-05T09:00:00.000Z",
            isDir: false,
            scope: "upload"
          }
        ]
      },
      [post]: { json: message("m4") }
    })
    const el = await make()
    const attach = Array.from(el.shadowRoot!.querySelectorAll("button")).find((b) => b.textContent === "Attach")!
    attach.click()
    await until(() => el.shadowRoot!.querySelector("fieldset.picker") !== null || textOf(el).includes("no uploads"))
    expect(node.to("GET /api/files")[0]!.search.get("scope")).to.equal("upload")
    expect(attach.getAttribute("aria-expanded")).to.equal("true")
    const box = el.shadowRoot!.querySelector<HTMLInputElement>("fieldset.picker input[type=checkbox]")!
    box.click()
    await el.updateComplete
    expect(textOf(el.shadowRoot!.querySelector(".attached")!)).to.contain("notes.md")
    textarea(el).focus()
    await sendKeys({ type: "See this" })
    await sendKeys({ press: "Enter" })
    expect((await node.request(post)).body).to.deep.equal({ content: "See this", attachments: ["f1"] })
  })

  it("has no composer in a read-only thread", async () => {
    fakeNode({ [messages]: { json: [] } })
    const el = await make({ replyPolicy: "none", kind: "agent" })
    await until(() => textOf(el).includes("No messages yet."))
    expect(el.shadowRoot!.querySelector("textarea")).to.equal(null)
    expect(textOf(el)).to.contain("Read-only: nobody answers in this thread.")
  })

  it("streams a Muse reply: thinking, its tool chip, its words, then the stored message", async () => {
    fakeNode({ [messages]: { json: [] } })
    const live = fakeLive()
    const el = await fixture<ThreadConversation>(
      html`<thread-conversation .thread=${thread} selfId="b-owner"></thread-conversation>`
    )
    live.hello()
    await until(() =>
      live.sent().some((frame) => JSON.stringify(frame) === JSON.stringify({ type: "subscribe", topic: "thread:t1" }))
    )
    live.send({ type: "message.delta", threadId: "t1", messageId: "m9", delta: "" })
    await until(() => textOf(el).includes("Iris is thinking…"))
    live.send({
      type: "message.tool",
      threadId: "t1",
      messageId: "m9",
      toolCall: { id: "c1", name: "memory.recall", state: "done", error: null, approval: null, durationMs: 12 }
    })
    live.send({ type: "message.delta", threadId: "t1", messageId: "m9", delta: "Green tea" })
    await until(() => textOf(el).includes("Green tea"))
    expect(textOf(el)).to.contain("Done · 12 ms")
    live.send({
      type: "message.created",
      message: message("m9", { role: "assistant", authorId: null, content: "Green tea, then." })
    })
    await until(() => el.shadowRoot!.querySelector("li.streaming") === null)
    expect(textOf(el)).to.contain("Green tea, then.")
  })
})

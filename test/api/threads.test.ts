/**
 * Threads over real HTTP and real sockets, with no model bound: the inbox makes the muse thread
 * lazily, named after the Muse name the being chose; direct threads between two beings; messages
 * with attachments from the caller's own uploads; delete; the refusals (bad kind, empty or
 * oversize content, an attachment not the caller's, another's or a deleted thread); the topic
 * `thread:<id>` only for participants; and the Muse asleep at once with no model bound.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { noModelSettings } from "../support/models.ts"
import {
  apiError,
  registerMember,
  registerOwner,
  firstPage,
  run,
  startNode,
  type Client,
  type Registered,
  type TestNode
} from "../support/node.ts"

let node: TestNode
let owner: Registered
let member: Registered

beforeAll(async () => {
  node = await startNode({ ...noModelSettings })
  owner = await registerOwner(node)
  member = await registerMember(node, owner.client)
})
afterAll(() => node.close())

const upload = async (client: Client, name: string, content: string) => {
  const form = new FormData()
  form.append("file", new Blob([content]), name)
  const response = await fetch(`${client.base}/api/files/upload`, {
    method: "POST",
    body: form,
    headers: { ...client.headers, cookie: client.cookieHeader() }
  })
  const body = (await response.json()) as ReadonlyArray<{ id: string }>
  return body[0]!.id
}

describe("the inbox", () => {
  it("makes the being's muse thread on first open, named after its chosen Muse name, with an explicit replyPolicy", async () => {
    const fresh = await registerMember(node, owner.client)
    await run(fresh.client.api.twin.patchPreferences({ payload: { museName: "Iris" } }))
    const inbox = await run(fresh.client.api.threads.listThreads({ urlParams: firstPage }))
    expect(inbox).toEqual([
      expect.objectContaining({
        kind: "muse",
        title: "Iris",
        replyPolicy: "muse",
        participants: [fresh.being.id],
        preview: null
      })
    ])
    // Opening again finds the same thread, not a second one.
    const muses = await run(fresh.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    expect(muses.map((thread) => thread.id)).toEqual([inbox[0]!.id])
    // A being that chose no name talks to "Muse".
    const [plain] = await run(member.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    expect(plain!.title).toBe("Muse")
    // POST { kind: 'muse' } opens another one.
    const second = await run(fresh.client.api.threads.openThread({ payload: { kind: "muse" } }))
    expect(second).toMatchObject({ kind: "muse", title: "Iris", replyPolicy: "muse" })
    expect(
      (await run(fresh.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))).length
    ).toBe(2)
  })

  it("opens one direct thread between two beings, titled with the other's name, which both see", async () => {
    const opened = await run(
      member.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: owner.being.id } })
    )
    expect(opened).toMatchObject({ kind: "direct", replyPolicy: "being", title: owner.being.displayName })
    expect([...opened.participants].sort()).toEqual([owner.being.id, member.being.id].sort())
    const again = await run(
      owner.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: member.being.id } })
    )
    expect(again.id).toBe(opened.id)
    expect(again.title).toBe(member.being.displayName)

    const sent = await run(
      member.client.api.threads.postMessage({ path: { id: opened.id }, payload: { content: "Hello there" } })
    )
    expect(sent).toMatchObject({ role: "user", authorId: member.being.id, content: "Hello there", threadId: opened.id })
    const inbox = await run(owner.client.api.threads.listThreads({ urlParams: { kind: "direct", ...firstPage } }))
    expect(inbox.find((thread) => thread.id === opened.id)).toMatchObject({
      preview: "Hello there",
      lastMessageAt: sent.createdAt
    })
    // Nobody answers by itself in a direct thread.
    expect(await run(owner.client.api.threads.listMessages({ path: { id: opened.id } }))).toEqual([sent])
    expect(await run(owner.client.api.threads.listThreads({ urlParams: { kind: "agent", ...firstPage } }))).toEqual([])
  })

  it("refuses a bad kind, a thread with oneself and an unknown being", async () => {
    for (const body of [{ kind: "square" }, { kind: "muse", beingId: owner.being.id }, {}]) {
      const answer = await member.client.raw("POST", "/api/threads", body)
      expect([answer.status, apiError(answer).error], JSON.stringify(body)).toEqual([400, "invalid_request"])
    }
    const self = await member.client.raw("POST", "/api/threads", { kind: "direct", withBeingId: member.being.id })
    expect([self.status, apiError(self).error]).toEqual([400, "thread_with_self"])
    const nobody = await member.client.raw("POST", "/api/threads", { kind: "direct", withBeingId: "no-such-being" })
    expect([nobody.status, apiError(nobody).error]).toEqual([404, "being_not_found"])
    const badKind = await member.client.raw("GET", "/api/threads?kind=square")
    expect(badKind.status).toBe(400)
  })
})

describe("messages", () => {
  it("attaches the caller's own uploads and refuses another's, a project's file, empty and oversize content", async () => {
    const [thread] = await run(member.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    const id = thread!.id
    const mine = await upload(member.client, "notes.txt", "my notes")
    const theirs = await upload(owner.client, "secret.txt", "the owner's")
    const before = await run(member.client.api.threads.listMessages({ path: { id } }))
    const refusals: Array<[unknown, number, string]> = [
      [{ content: "   " }, 400, "invalid_request"],
      [{ content: "x".repeat(8001) }, 400, "invalid_request"],
      [{ content: "hi", attachments: [theirs] }, 404, "attachment_not_found"],
      [
        { content: "hi", attachments: [Buffer.from("project:p1:a.txt").toString("base64url")] },
        400,
        "attachment_not_upload"
      ],
      [{ content: "hi", authorId: owner.being.id }, 400, "invalid_request"]
    ]
    for (const [body, status, code] of refusals) {
      const answer = await member.client.raw("POST", `/api/threads/${id}/messages`, body)
      expect([answer.status, apiError(answer).error], JSON.stringify(body).slice(0, 80)).toEqual([status, code])
    }
    expect(await run(member.client.api.threads.listMessages({ path: { id } }))).toEqual(before)

    const sent = await run(
      member.client.api.threads.postMessage({ path: { id }, payload: { content: "Look at this", attachments: [mine] } })
    )
    expect(sent.attachments).toEqual([{ fileId: mine, name: "notes.txt", size: 8 }])
  })

  it("answers another being's thread and a deleted one as missing", async () => {
    const [theirs] = await run(owner.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    for (const [method, path, body] of [
      ["GET", `/api/threads/${theirs!.id}`, undefined],
      ["GET", `/api/threads/${theirs!.id}/messages`, undefined],
      ["POST", `/api/threads/${theirs!.id}/messages`, { content: "hi" }],
      ["DELETE", `/api/threads/${theirs!.id}`, undefined]
    ] as const) {
      const answer = await member.client.raw(method, path, body)
      expect([answer.status, apiError(answer).error], `${method} ${path}`).toEqual([404, "thread_not_found"])
    }
    const doomed = await run(member.client.api.threads.openThread({ payload: { kind: "muse" } }))
    expect(await run(member.client.api.threads.deleteThread({ path: { id: doomed.id } }))).toEqual({ ok: true })
    const after = await member.client.raw("POST", `/api/threads/${doomed.id}/messages`, { content: "still there?" })
    expect([after.status, apiError(after).error]).toEqual([404, "thread_not_found"])
    expect((await member.client.raw("GET", `/api/threads/${doomed.id}/messages`)).status).toBe(404)
    expect((await member.client.raw("GET", `/api/threads/${doomed.id}`)).status).toBe(404)
    expect(
      (await run(member.client.api.threads.listThreads({ urlParams: firstPage }))).map((thread) => thread.id)
    ).not.toContain(doomed.id)
  })

  it("keeps a direct thread for the other being when one leaves it", async () => {
    const third = await registerMember(node, owner.client)
    const thread = await run(
      third.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: member.being.id } })
    )
    await run(third.client.api.threads.postMessage({ path: { id: thread.id }, payload: { content: "before leaving" } }))
    await run(third.client.api.threads.deleteThread({ path: { id: thread.id } }))
    expect((await third.client.raw("GET", `/api/threads/${thread.id}/messages`)).status).toBe(404)
    const kept = await run(member.client.api.threads.listMessages({ path: { id: thread.id } }))
    expect(kept.map((message) => message.content)).toEqual(["before leaving"])
    // Opening again makes a fresh thread: the one they left stays left.
    const fresh = await run(
      third.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: member.being.id } })
    )
    expect(fresh.id).not.toBe(thread.id)
  })
})

describe("the inbox, live", () => {
  it("tells each participant's tabs `thread.updated` with its own view, without following the thread", async () => {
    const writer = await registerMember(node, owner.client)
    const reader = await registerMember(node, owner.client)
    const [writerTab, readerTab] = await Promise.all([
      LiveTab.open(node, writer.client),
      LiveTab.open(node, reader.client)
    ])
    // Opening a direct thread puts it in the other's inbox at once.
    const opened = await run(
      writer.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: reader.being.id } })
    )
    const arrived = await readerTab.nextOf("thread.updated")
    expect(arrived.thread).toMatchObject({
      id: opened.id,
      kind: "direct",
      title: writer.being.displayName,
      replyPolicy: "being",
      preview: null
    })

    const sent = await run(
      writer.client.api.threads.postMessage({
        path: { id: opened.id },
        payload: { content: "Are you coming tonight?" }
      })
    )
    const [theirs, mine] = await Promise.all([
      readerTab.nextOf("thread.updated", (frame) => frame.thread.preview !== null),
      writerTab.nextOf("thread.updated", (frame) => frame.thread.id === opened.id)
    ])
    expect(theirs.thread).toMatchObject({
      id: opened.id,
      title: writer.being.displayName,
      preview: "Are you coming tonight?",
      lastMessageAt: sent.createdAt
    })
    expect(mine.thread).toMatchObject({
      id: opened.id,
      title: reader.being.displayName,
      preview: "Are you coming tonight?"
    })
    // The message itself stays on the thread's topic, which neither tab follows.
    expect([...readerTab.frames, ...writerTab.frames].filter((frame) => frame.type.startsWith("message."))).toEqual([])

    // After leaving, the thread is no longer told to the one who left.
    await run(reader.client.api.threads.deleteThread({ path: { id: opened.id } }))
    await run(writer.client.api.threads.postMessage({ path: { id: opened.id }, payload: { content: "Still there?" } }))
    await writerTab.nextOf("thread.updated", (frame) => frame.thread.preview === "Still there?")
    expect(
      readerTab.frames.filter((frame) => frame.type === "thread.updated" && frame.thread.preview === "Still there?")
    ).toEqual([])
    await Promise.all([writerTab.close(), readerTab.close()])
  })

  it("tells the being when the Muse's reply is stored", async () => {
    const fresh = await registerMember(node, owner.client)
    const [thread] = await run(fresh.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    const tab = await LiveTab.open(node, fresh.client)
    await run(fresh.client.api.threads.postMessage({ path: { id: thread!.id }, payload: { content: "Hello, Muse" } }))
    const replied = await tab.nextOf("thread.updated", (frame) => frame.thread.preview !== "Hello, Muse")
    expect(replied.thread).toMatchObject({ id: thread!.id, kind: "muse", title: "Muse" })
    expect(replied.thread.preview).toMatch(/asleep/)
    await tab.close()
  })
})

describe("the Muse with no model bound", () => {
  it("answers at once that it is asleep, on the thread's topic and in the thread", async () => {
    const fresh = await registerMember(node, owner.client)
    const [thread] = await run(fresh.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    const tab = await LiveTab.open(node, fresh.client)
    tab.send({ type: "subscribe", topic: `thread:${thread!.id}` })
    await tab.nextOf("subscribed")
    const sent = await run(
      fresh.client.api.threads.postMessage({ path: { id: thread!.id }, payload: { content: "Are you there?" } })
    )
    expect((await tab.nextOf("message.created")).message).toEqual(sent)
    const thinking = await tab.nextOf("message.delta")
    expect(thinking.delta).toBe("")
    const reply = (await tab.nextOf("message.created")).message
    expect(reply).toMatchObject({ id: thinking.messageId, role: "assistant", authorId: null, threadId: thread!.id })
    expect(reply.content).toMatch(/asleep/)
    expect(await run(fresh.client.api.threads.listMessages({ path: { id: thread!.id } }))).toEqual([sent, reply])
    await tab.close()
  })
})

describe("the topic thread:<id>", () => {
  it("is followed by the thread's participants only", async () => {
    const [theirs] = await run(owner.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    const [mine] = await run(member.client.api.threads.listThreads({ urlParams: { kind: "muse", ...firstPage } }))
    const tab = await LiveTab.open(node, member.client)
    tab.send({ type: "subscribe", topic: `thread:${theirs!.id}` })
    expect(await tab.ofType("error")).toMatchObject({ error: "topic_refused", topic: `thread:${theirs!.id}` })
    tab.send({ type: "subscribe", topic: "thread:no-such-thread" })
    expect(await tab.ofType("error")).toMatchObject({ error: "topic_refused" })
    tab.send({ type: "subscribe", topic: `thread:${mine!.id}` })
    expect(await tab.ofType("subscribed")).toEqual({ type: "subscribed", topic: `thread:${mine!.id}` })
    await tab.close()
  })
})

/**
 * What a thread post costs the database, read from its trace (every trace sampled, exported to a test OTLP receiver):
 * A's post in a federated conversation (docs/benchmarks.md's "Deliveries between two nodes") reads its thread once,
 * and the `thread.updated` it tells is answered from that read and one read of who is in the thread; a post in a
 * direct thread between two beings of one node tells both with one read of their names. These counts fail when the
 * post reads the thread again, or the announce reads a thread, its participants or a name once a participant.
 */
import * as Option from "effect/Option"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { beingDidOf, capabilitiesOf } from "../support/federation.ts"
import { LiveTab } from "../support/live.ts"
import { registerMember, registerOwner, run, startNode, type Registered, type TestNode } from "../support/node.ts"
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "../support/otlp-receiver.ts"

let collector: OtlpReceiver
let a: TestNode
let b: TestNode
let ownerA: Registered
let ownerB: Registered
beforeAll(async () => {
  collector = await startOtlpReceiver()
  ;[a, b] = await Promise.all([
    startNode({ otlpEndpoint: Option.some(collector.endpoint), tracesSampleRatio: 1 }),
    startNode()
  ])
  ;[ownerA, ownerB] = await Promise.all([registerOwner(a), registerOwner(b)])
})
afterAll(() => Promise.all([a.close(), b.close(), collector.close()]))

/** The spans of the trace under `root`, itself included. */
const subtree = (root: ReceivedSpan) => {
  const children = new Map<string, Array<ReceivedSpan>>()
  for (const span of collector.spans) {
    if (span.traceId !== root.traceId || span.parentSpanId === undefined) continue
    children.set(span.parentSpanId, [...(children.get(span.parentSpanId) ?? []), span])
  }
  const found: Array<ReceivedSpan> = []
  const walk = (span: ReceivedSpan) => {
    found.push(span)
    for (const child of children.get(span.spanId) ?? []) walk(child)
  }
  walk(root)
  return found
}

const queryText = (span: ReceivedSpan) =>
  String(span.attributes.find((attribute) => attribute.key === "db.query.text")?.value.stringValue ?? "")

/** The next `threads.post` span after those seen, once its announce (which ends after it) has arrived too. */
const nextPost = async (seen: Set<string>) => {
  const find = () => collector.spans.find((span) => span.name === "threads.post" && !seen.has(span.spanId))
  await expect.poll(find, { timeout: 15_000 }).toBeDefined()
  const root = find()!
  seen.add(root.spanId)
  await expect
    .poll(() => subtree(root).some((span) => span.name === "threads.announce"), { timeout: 15_000 })
    .toBe(true)
  const spans = subtree(root)
  const named = (name: string) => spans.filter((span) => span.name === name).length
  return {
    statements: spans.filter((span) => span.name === "sql.execute").map((span) => queryText(span).slice(0, 70)),
    threadReads: named("threads.findFor"),
    participantReads: named("threads.participants") + named("threads.participantsOfThreads"),
    nameReads: spans.filter((span) => span.name === "sql.execute" && /FROM beings/i.test(queryText(span))).length
  }
}

const post = (owner: Registered, threadId: string, content: string) =>
  run(owner.client.api.threads.postMessage({ path: { id: threadId }, payload: { content } }))

describe("a thread post's statements", () => {
  const seen = new Set<string>()

  it("in a federated conversation: the thread read once, and one read of who is in it for thread.updated", async () => {
    const [didB, boDid] = [(await capabilitiesOf(b)).payload.did, await beingDidOf(b, ownerB)]
    const didA = (await capabilitiesOf(a)).payload.did
    await run(ownerA.client.api.federation.addPeer({ payload: { nodeDid: didB as never, endpoint: b.url, name: "B" } }))
    await run(ownerB.client.api.federation.addPeer({ payload: { nodeDid: didA as never, endpoint: a.url } }))
    await run(ownerA.client.api.federation.greetPeer({ path: { id: didB } }))
    const { threadId } = await run(
      ownerA.client.api.federation.openConversation({ payload: { peerDid: didB as never, remoteDid: boDid as never } })
    )
    const tab = await LiveTab.open(a, ownerA.client)
    await post(ownerA, threadId, "warm-up")
    await nextPost(seen)
    await tab.nextOf("thread.updated")
    await post(ownerA, threadId, "the one counted")
    const counted = await nextPost(seen)
    const told = await tab.nextOf("thread.updated")
    tab.close()
    expect(told.thread.preview).toBe("the one counted")
    // The thread, the message, who is in it; the conversation, the sender's key, the courier's wake, the outbox row.
    // Before: nine, the thread read again and its participants twice for thread.updated.
    expect(counted.statements, counted.statements.join("\n")).toHaveLength(7)
    expect(counted.threadReads, counted.statements.join("\n")).toBe(1)
    expect(counted.participantReads, counted.statements.join("\n")).toBe(1)
  }, 60_000)

  it("in a direct thread of one node: both told, their names read once", async () => {
    const member = await registerMember(a, ownerA.client)
    const thread = await run(
      ownerA.client.api.threads.openThread({ payload: { kind: "direct", withBeingId: member.being.id } })
    )
    const [mine, theirs] = await Promise.all([LiveTab.open(a, ownerA.client), LiveTab.open(a, member.client)])
    await post(ownerA, thread.id, "warm-up")
    await nextPost(seen)
    await Promise.all([mine.nextOf("thread.updated"), theirs.nextOf("thread.updated")])
    await post(ownerA, thread.id, "hello from the owner")
    const counted = await nextPost(seen)
    const [toMe, toThem] = await Promise.all([mine.nextOf("thread.updated"), theirs.nextOf("thread.updated")])
    mine.close()
    theirs.close()
    expect(toMe.thread.preview).toBe("hello from the owner")
    expect(toThem.thread.title).toBe(ownerA.registration.displayName)
    expect(toMe.thread.title).toBe(member.registration.displayName)
    // The thread, the message, who is in it, their names, whether it is a conversation with another node. Before: ten,
    // the thread, its participants and a name read once more for each of the two told.
    expect(counted.statements, counted.statements.join("\n")).toHaveLength(5)
    expect(counted.threadReads, counted.statements.join("\n")).toBe(1)
    expect(counted.participantReads, counted.statements.join("\n")).toBe(1)
    expect(counted.nameReads, counted.statements.join("\n")).toBe(1)
  }, 60_000)
})

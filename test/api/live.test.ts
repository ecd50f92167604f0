import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { digest } from "../../extensions/accounts/tokens.ts"
import { LiveChannel } from "../../host/live/channel.ts"
import { TopicAccess } from "../../kernel/live/topic-access.ts"
import type { BusEvent } from "../../kernel/contract/events.ts"
import type { Audience } from "../../kernel/contract/events.ts"
import { EventBus } from "../../kernel/events.ts"
import { inNode, type LiveFrame, LiveTab, refusedHandshake } from "../support/live.ts"
import { Client, nodeWithOwner, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

const publish = (audience: Audience, event: BusEvent) =>
  inNode(
    context.node,
    Effect.flatMap(EventBus, (bus) => bus.publish(audience, event))
  )

let activity = 0
/** A distinct event each call, so a test can tell its own frames apart. */
const twinActivity = (summary = `activity ${++activity}`): Extract<BusEvent, { type: "twin.activity" }> => ({
  type: "twin.activity",
  kind: "thought",
  summary,
  at: new Date().toISOString()
})

const isActivity = (summary: string) => (frame: LiveFrame) =>
  frame.type === "twin.activity" && frame.summary === summary

const signInAgain = async (registration: { email: string; password: string }) => {
  const device = new Client(context.node.url)
  await run(device.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
  return device
}

describe("the live channel handshake", () => {
  it("greets a signed-in tab with hello: its being and the server's time", async () => {
    const before = Date.now()
    const tab = await LiveTab.open(context.node, context.owner.client)
    const hello = await tab.next()
    expect(hello).toEqual({ type: "hello", beingId: context.owner.being.id, serverTime: expect.any(String) })
    if (hello.type !== "hello") throw new Error("the first frame is not hello")
    expect(Date.parse(hello.serverTime)).toBeGreaterThanOrEqual(before - 1000)
    expect(Date.parse(hello.serverTime)).toBeLessThanOrEqual(Date.now() + 1000)
    await tab.close()
  })

  it("refuses a handshake without a session, or with a forged or unknown cookie, with 401 before upgrading", async () => {
    const none = await refusedHandshake(context.node)
    expect(none.status).toBe(401)
    expect(none.body).toEqual({ error: "unauthorized", message: expect.any(String) })
    const [token] = context.owner.client.cookie("svc_session")!.split(".")
    const forged = await refusedHandshake(context.node, undefined, { cookie: `svc_session=${token}.forgedsignature` })
    expect(forged.status).toBe(401)
    const unsigned = await refusedHandshake(context.node, undefined, { cookie: `svc_session=${token}` })
    expect(unsigned.status).toBe(401)
    // The HTTP side is untouched by those refusals.
    await run(context.owner.client.api.auth.me())
  })

  it("refuses other upgrade paths with 404 and a page from another site with 403", async () => {
    const elsewhere = await refusedHandshake(context.node, context.owner.client, {}, "/api/health")
    expect(elsewhere.status).toBe(404)
    expect(elsewhere.body).toMatchObject({ error: "not_found" })
    const crossSite = await refusedHandshake(context.node, context.owner.client, { origin: "https://evil.example" })
    expect(crossSite.status).toBe(403)
    const sameSite = await LiveTab.open(context.node, context.owner.client, { origin: context.node.url })
    expect((await sameSite.next()).type).toBe("hello")
    await sameSite.close()
  })
})

describe("fan-out", () => {
  it("delivers a being's event to every tab of that being and to no one else", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const first = await LiveTab.open(context.node, member.client)
    const second = await LiveTab.open(context.node, member.client)
    const other = await LiveTab.open(context.node, context.owner.client)
    const event = twinActivity()
    await publish({ kind: "being", beingId: member.being.id }, event)
    expect(await first.next(isActivity(event.summary))).toEqual(event)
    expect(await second.next(isActivity(event.summary))).toEqual(event)
    // The owner's tab gets a later broadcast but nothing before it from the member's event.
    const marker = twinActivity()
    await publish({ kind: "all" }, marker)
    const seen = await other.upTo(isActivity(marker.summary))
    expect(seen.filter(isActivity(event.summary))).toEqual([])
    await Promise.all([first.close(), second.close(), other.close()])
  })

  it("delivers a broadcast to every connected being", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const tabs = await Promise.all([
      LiveTab.open(context.node, member.client),
      LiveTab.open(context.node, context.owner.client),
      LiveTab.open(context.node, context.owner.client)
    ])
    const event = twinActivity()
    await publish({ kind: "all" }, event)
    for (const tab of tabs) expect(await tab.next(isActivity(event.summary))).toEqual(event)
    await Promise.all(tabs.map((tab) => tab.close()))
  })
})

describe("topics", () => {
  it("refuses an unknown topic kind and a malformed message, on the socket, and keeps the socket open", async () => {
    const tab = await LiveTab.open(context.node, context.owner.client)
    tab.send({ type: "subscribe", topic: "nothing:t1" })
    expect(await tab.ofType("error")).toEqual({
      type: "error",
      error: "unknown_topic",
      message: expect.any(String),
      topic: "nothing:t1"
    })
    tab.send("not json")
    expect((await tab.ofType("error")).error).toBe("invalid_message")
    tab.send({ type: "subscribe", topic: "no colon" })
    expect((await tab.ofType("error")).error).toBe("invalid_message")
    tab.send({ type: "shout" })
    expect((await tab.ofType("error")).error).toBe("invalid_message")
    const event = twinActivity()
    await publish({ kind: "being", beingId: context.owner.being.id }, event)
    expect(await tab.next(isActivity(event.summary))).toEqual(event)
    await tab.close()
  })

  it("follows a topic its owner allows, refuses one it does not, and stops on unsubscribe", async () => {
    await inNode(
      context.node,
      Effect.flatMap(TopicAccess, (topics) =>
        topics.register("room", (beingId, id) => Effect.succeed(id === "open" || id === `own-${beingId}`))
      )
    )
    const member = await registerMember(context.node, context.owner.client)
    const tab = await LiveTab.open(context.node, member.client)
    const bystander = await LiveTab.open(context.node, context.owner.client)
    tab.send({ type: "subscribe", topic: "room:open" })
    expect(await tab.ofType("subscribed")).toEqual({ type: "subscribed", topic: "room:open" })
    tab.send({ type: "subscribe", topic: `room:own-${context.owner.being.id}` })
    expect(await tab.ofType("error")).toMatchObject({
      error: "topic_refused",
      topic: `room:own-${context.owner.being.id}`
    })

    const onTopic = twinActivity()
    await publish({ kind: "topic", topic: "room:open" }, onTopic)
    expect(await tab.next(isActivity(onTopic.summary))).toEqual(onTopic)

    tab.send({ type: "unsubscribe", topic: "room:open" })
    expect(await tab.ofType("unsubscribed")).toEqual({ type: "unsubscribed", topic: "room:open" })
    const afterwards = twinActivity()
    await publish({ kind: "topic", topic: "room:open" }, afterwards)
    const marker = twinActivity()
    await publish({ kind: "all" }, marker)
    expect((await tab.upTo(isActivity(marker.summary))).filter(isActivity(afterwards.summary))).toEqual([])
    // A tab that never subscribed got neither topic event.
    const seen = await bystander.upTo(isActivity(marker.summary))
    expect(seen.filter((frame) => isActivity(onTopic.summary)(frame) || isActivity(afterwards.summary)(frame))).toEqual(
      []
    )
    await Promise.all([tab.close(), bystander.close()])
  })
})

describe("ending a session closes its sockets (4001)", () => {
  it("logout closes this session's sockets and leaves the being's other sessions open", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const laptop = await signInAgain(member.registration)
    const here = await LiveTab.open(context.node, member.client)
    const there = await LiveTab.open(context.node, laptop)
    await run(member.client.api.auth.logout())
    expect(await here.closed).toEqual({ code: 4001, reason: "session ended" })
    const event = twinActivity()
    await publish({ kind: "being", beingId: member.being.id }, event)
    expect(await there.next(isActivity(event.summary))).toEqual(event)
    await there.close()
  })

  it("DELETE /api/auth/sessions/:id closes the revoked session's sockets", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const phone = await signInAgain(member.registration)
    const tab = await LiveTab.open(context.node, phone)
    const sessions = await run(member.client.api.auth.listSessions())
    const other = sessions.find((row) => !row.current)!
    await run(member.client.api.auth.revokeSession({ path: { id: other.id } }))
    expect((await tab.closed).code).toBe(4001)
  })

  it("logout everywhere, revoking the others, suspension and a password reset close every socket they end", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const phone = await signInAgain(member.registration)
    let own = await LiveTab.open(context.node, member.client)
    let other = await LiveTab.open(context.node, phone)
    await run(member.client.api.auth.revokeOtherSessions())
    expect((await other.closed).code).toBe(4001)

    await run(member.client.api.auth.logoutAll())
    expect((await own.closed).code).toBe(4001)

    const suspended = await signInAgain(member.registration)
    own = await LiveTab.open(context.node, suspended)
    await run(context.owner.client.api.auth.suspend({ path: { id: member.being.id } }))
    expect((await own.closed).code).toBe(4001)
    await run(context.owner.client.api.auth.unsuspend({ path: { id: member.being.id } }))

    const beforeReset = await signInAgain(member.registration)
    other = await LiveTab.open(context.node, beforeReset)
    const token = `reset-token-${member.being.id}`
    await inNode(
      context.node,
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`INSERT INTO mail_tokens (token_hash, being_id, purpose, email, created_at, expires_at)
          VALUES (${digest(token)}, ${member.being.id}, 'reset', ${member.registration.email},
            ${new Date().toISOString()}, ${new Date(Date.now() + 3_600_000).toISOString()})`
      )
    )
    await run(
      new Client(context.node.url).api.authPublic.resetPassword({
        payload: { token, password: "another fine password" }
      })
    )
    expect((await other.closed).code).toBe(4001)
  })

  it("an expired session's sockets close at the next heartbeat's check", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const tab = await LiveTab.open(context.node, member.client)
    await tab.ofType("hello")
    await inNode(
      context.node,
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) =>
          sql`UPDATE sessions SET expires_at = ${new Date(Date.now() - 1000).toISOString()} WHERE being_id = ${member.being.id}`
      )
    )
    await inNode(
      context.node,
      Effect.flatMap(LiveChannel, (channel) => channel.reconcile)
    )
    expect(await tab.closed).toEqual({ code: 4001, reason: "session ended" })
  })
})

describe("presence", () => {
  const presenceOf = (beingId: string, status: string) => (frame: LiveFrame) =>
    frame.type === "presence.update" && frame.beingId === beingId && frame.status === status

  it("tells everyone when a being comes online (first tab) and goes offline (last tab closed), once each", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const watcher = await LiveTab.open(context.node, context.owner.client)
    await watcher.ofType("hello")

    const first = await LiveTab.open(context.node, member.client)
    expect(await watcher.next(presenceOf(member.being.id, "online"))).toEqual({
      type: "presence.update",
      beingId: member.being.id,
      status: "online"
    })
    const health = await run(new Client(context.node.url).api.health.health())
    expect(health.live.connections).toBeGreaterThanOrEqual(2)
    expect(health.live.beingsOnline).toBeGreaterThanOrEqual(2)

    const second = await LiveTab.open(context.node, member.client)
    await second.ofType("hello")
    await first.close()
    const marker = twinActivity()
    // The second tab's own opening and the first tab's closing changed nothing: no presence event yet.
    await publish({ kind: "all" }, marker)
    const between = await watcher.upTo(isActivity(marker.summary))
    expect(between.filter((frame) => frame.type === "presence.update" && frame.beingId === member.being.id)).toEqual([])

    await second.close()
    expect(await watcher.next(presenceOf(member.being.id, "offline"))).toEqual({
      type: "presence.update",
      beingId: member.being.id,
      status: "offline"
    })
    await watcher.close()
  })
})

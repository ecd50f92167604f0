/**
 * Web Push through the node (issue 30), against a push service of the test's own (test/support/push-service.ts: it
 * checks each message's VAPID JWT against `GET /api/push/key` and decrypts it with the subscription's private key):
 * what is pushed and when (a delivered signal once per subscription with the fixed payload and headers; quiet hours
 * hold it until the gate releases it; the cap's refusal pushes nothing; another person's signals never arrive), what a
 * push service's answers do (410 deletes, 503 is tried again after Retry-After), and every refusal of the routes.
 */
import { statSync } from "node:fs"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { GateTrigger } from "../../actors/being/contract/hush.ts"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"
import { Scheduler } from "../../extensions/time/contract/scheduler.ts"
import { inNode } from "../support/live.ts"
import { movableClock } from "../support/shifted-clock.ts"
import { type DeviceSubscription, type PushService, startPushService } from "../support/push-service.ts"
import {
  apiError,
  Client,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type Registered,
  type TestNode
} from "../support/node.ts"
import { until } from "../support/until.ts"

const clock = movableClock()
let node: TestNode
let owner: Registered
let push: PushService

beforeAll(async () => {
  push = await startPushService()
  node = await startNode(
    {
      encryptionKey: Option.some(Redacted.make("a long passphrase for the push tests")),
      pushAllowLoopback: true,
      pushContact: Option.some("mailto:ops@example.org"),
      pushMaxSubscriptions: 3
    },
    { clock }
  )
  owner = await registerOwner(node)
  push.nodeKey = (await run(owner.client.api.push.getKey())).publicKey
})
afterAll(async () => {
  await node.close()
  await push.close()
})

let devices = 0
const subscribed = async (client: Client) => {
  devices += 1
  const device = push.subscribe(`device-${devices}`)
  const answer = await run(client.api.push.subscribe({ payload: { endpoint: device.endpoint, keys: device.keys } }))
  return { device, id: answer.id }
}

const raise = (beingId: string, title: string, trigger: GateTrigger, extra: Record<string, unknown> = {}) =>
  inNode(
    node,
    Effect.flatMap(Signals, (signals) =>
      signals.raise(beingId, Schema.decodeUnknownSync(SignalInput)({ title, ...extra }), "test", trigger)
    )
  )

const pushedTo = (device: DeviceSubscription, signalId: string) =>
  push.received(device.name).filter((message) => message.payload.id === signalId)

const arrives = (device: DeviceSubscription, signalId: string, count = 1, timeoutMs = 10_000) =>
  until(
    `${count} push of ${signalId} to ${device.name}`,
    () => pushedTo(device, signalId).length >= count && pushedTo(device, signalId),
    timeoutMs
  )

const metric = async (outcome: string) => {
  const text = (await owner.client.raw("GET", "/api/metrics")).text
  const line = text.split("\n").find((row) => row.startsWith(`pos_push_messages_total{outcome="${outcome}"}`))
  return line === undefined ? 0 : Number(line.split(" ")[1])
}

describe("the key and the subscriptions", () => {
  it("answers one VAPID public key, an uncompressed P-256 point, to any signed-in person", async () => {
    const { client } = await registerMember(node, owner.client)
    const { publicKey } = await run(client.api.push.getKey())
    expect(publicKey).toBe(push.nodeKey)
    expect(Buffer.from(publicKey, "base64url")).toHaveLength(65)
    expect(Buffer.from(publicKey, "base64url")[0]).toBe(4)
    expect((await new Client(node.url).raw("GET", "/api/push/key")).status).toBe(401)
  })

  it("keeps the same endpoint once, lists only the caller's, deletes only the caller's", async () => {
    const alice = await registerMember(node, owner.client)
    const bob = await registerMember(node, owner.client)
    const device = push.subscribe("phone-of-alice")
    const first = await run(
      alice.client.api.push.subscribe({ payload: { endpoint: device.endpoint, keys: device.keys, device: "Phone" } })
    )
    expect(first).toEqual({ id: expect.any(String), device: "Phone", createdAt: expect.any(String) })
    const again = await run(
      alice.client.api.push.subscribe({ payload: { endpoint: device.endpoint, keys: device.keys, device: "My phone" } })
    )
    expect(again).toEqual({ ...first, device: "My phone" })
    expect(await run(alice.client.api.push.listSubscriptions())).toEqual([again])
    expect(await run(bob.client.api.push.listSubscriptions())).toEqual([])

    const named = await alice.client.raw(
      "POST",
      "/api/push/subscriptions",
      { endpoint: `${device.endpoint}-2`, keys: device.keys },
      { "user-agent": "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36" }
    )
    expect(named.status).toBe(200)
    expect((named.body as { device: string }).device).toBe("Chrome on Android")

    expect(await refused(bob.client.api.push.deleteSubscription({ path: { id: first.id } }))).toMatchObject({
      status: 404,
      body: { error: "subscription_not_found" }
    })
    await run(alice.client.api.push.deleteSubscription({ path: { id: first.id } }))
    expect((await run(alice.client.api.push.listSubscriptions())).map((row) => row.device)).toEqual([
      "Chrome on Android"
    ])
    expect(await refused(alice.client.api.push.deleteSubscription({ path: { id: first.id } }))).toMatchObject({
      status: 404
    })
  })

  it("refuses what it must: no session, a bad body, a refused endpoint, a wrong type, another site, one too many", async () => {
    const { client } = await registerMember(node, owner.client)
    const device = push.subscribe("refusals")
    const body = { endpoint: device.endpoint, keys: device.keys }
    const stranger = new Client(node.url)
    for (const [method, path] of [
      ["GET", "/api/push/subscriptions"],
      ["POST", "/api/push/subscriptions"],
      ["DELETE", "/api/push/subscriptions/abc"],
      ["POST", "/api/push/test"]
    ] as const) {
      expect((await stranger.raw(method, path, method === "POST" ? body : undefined)).status, path).toBe(401)
    }
    for (const bad of [
      {},
      { endpoint: device.endpoint },
      { ...body, keys: { ...device.keys, p256dh: "short" } },
      { ...body, keys: { ...device.keys, auth: "not base64url!!!!!!!!!" } },
      { ...body, endpoint: "x".repeat(3000) },
      { ...body, device: "" }
    ]) {
      const answer = await client.raw("POST", "/api/push/subscriptions", bad)
      expect(answer.status, JSON.stringify(bad).slice(0, 80)).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
    for (const endpoint of [
      "http://push.example.org/x",
      "ftp://127.0.0.1/x",
      "not a url",
      "https://user:secret@push.example.org/x"
    ]) {
      const answer = await client.raw("POST", "/api/push/subscriptions", { ...body, endpoint })
      expect(answer.status, endpoint).toBe(400)
      expect(apiError(answer).error).toBe("push_endpoint_refused")
    }
    expect((await client.raw("DELETE", "/api/push/subscriptions/bad%20id")).status).toBe(400)
    const typed = await client.raw("POST", "/api/push/subscriptions", JSON.stringify(body), {
      "content-type": "text/plain"
    })
    expect(typed.status).toBe(415)
    const evil = await client.raw("POST", "/api/push/subscriptions", body, { origin: "https://evil.example" })
    expect(evil.status).toBe(403)
    expect(apiError(evil).error).toBe("forbidden_origin")
    expect(await run(client.api.push.listSubscriptions())).toEqual([])

    for (let n = 0; n < 3; n += 1) await subscribed(client)
    const over = await client.raw("POST", "/api/push/subscriptions", body)
    expect(over.status).toBe(409)
    expect(apiError(over)).toMatchObject({ error: "too_many_subscriptions", details: { max: 3 } })
    expect(await run(client.api.push.listSubscriptions())).toHaveLength(3)
  })

  it("on a node of one process without ENCRYPTION_KEY, seals its key pair under the key the node keeps", async () => {
    const bare = await startNode({ encryptionKey: Option.none(), pushAllowLoopback: true })
    try {
      const { client } = await registerOwner(bare)
      const key = await client.raw("GET", "/api/push/key")
      expect(key.status).toBe(200)
      const device = push.subscribe("bare")
      const answer = await client.raw("POST", "/api/push/subscriptions", {
        endpoint: device.endpoint,
        keys: device.keys
      })
      expect(answer.status).toBe(200)
      expect(statSync(join(bare.dataDir, "keys", "ENCRYPTION_KEY")).isFile()).toBe(true)
    } finally {
      await bare.close()
    }
  })
})

describe("what is pushed", () => {
  it("pushes a proactive signal once to each subscription, with the fixed payload and headers", async () => {
    const { client, being } = await registerMember(node, owner.client)
    const phone = await subscribed(client)
    const laptop = await subscribed(client)
    const nudge = await raise(being.id, "Water the plants", "proactive", { body: "secret body", kind: "reminder" })
    expect(nudge.delivered).toBe(true)
    for (const { device } of [phone, laptop]) {
      const [message] = await arrives(device, nudge.signal.id)
      expect(message!.payload).toEqual({
        type: "signal",
        id: nudge.signal.id,
        kind: "reminder",
        title: "Water the plants",
        priority: "normal",
        url: `/?signal=${nudge.signal.id}`
      })
      expect(message!.headers).toMatchObject({ ttl: "86400", urgency: "normal", topic: nudge.signal.id })
      expect(message!.claims.sub).toBe("mailto:ops@example.org")
    }
    const urgent = await raise(being.id, "Leave now", "system", { priority: "urgent", kind: "alert" })
    expect((await arrives(phone.device, urgent.signal.id))[0]!.headers.urgency).toBe("high")
    const high = await raise(being.id, "Soon", "responsive", { priority: "high" })
    expect((await arrives(laptop.device, high.signal.id))[0]!.headers.urgency).toBe("high")
    await arrives(phone.device, high.signal.id)
    expect(pushedTo(phone.device, nudge.signal.id)).toHaveLength(1)
    expect(pushedTo(laptop.device, nudge.signal.id)).toHaveLength(1)
    expect(push.faults).toEqual([])
  })

  it("holds a nudge in quiet hours and pushes it when the gate releases it", async () => {
    const { client, being } = await registerMember(node, owner.client)
    const { device } = await subscribed(client)
    const now = new Date(Date.now() + clock.ahead)
    const minute = now.getUTCHours() * 60 + now.getUTCMinutes()
    await run(
      client.api.twinHush.putHush({
        payload: { quietStart: (minute + 1440 - 5) % 1440, quietEnd: (minute + 60) % 1440 }
      })
    )
    const held = await raise(being.id, "A thought at night", "proactive")
    expect(held.delivered).toBe(false)
    const marker = await raise(being.id, "marker", "system")
    await arrives(device, marker.signal.id)
    expect(pushedTo(device, held.signal.id)).toEqual([])

    // The night passes: the node's clock moves past the window's end, and the scheduler looks at its jobs again.
    clock.ahead += 61 * 60_000
    await inNode(
      node,
      Effect.flatMap(Scheduler, (scheduler) =>
        scheduler.schedule({
          key: "push-test:look",
          kind: "push-test.nothing",
          beingId: null,
          dueAt: new Date(Date.now() + clock.ahead + 86_400_000),
          payload: {}
        })
      )
    )
    const [released] = await arrives(device, held.signal.id)
    expect(released!.payload).toMatchObject({ id: held.signal.id, title: "A thought at night" })
    expect(pushedTo(device, held.signal.id)).toHaveLength(1)
  })

  it("pushes nothing of a nudge the daily cap refuses", async () => {
    const { client, being } = await registerMember(node, owner.client)
    const { device } = await subscribed(client)
    await run(client.api.twinHush.putHush({ payload: { dailyCap: 1 } }))
    const first = await raise(being.id, "one", "proactive")
    const over = await raise(being.id, "two", "proactive")
    expect(over.signal.status).toBe("dismissed")
    const marker = await raise(being.id, "marker", "system")
    await arrives(device, marker.signal.id)
    await arrives(device, first.signal.id)
    expect(pushedTo(device, over.signal.id)).toEqual([])
  })

  it("never pushes another person's signal to my devices", async () => {
    const me = await registerMember(node, owner.client)
    const other = await registerMember(node, owner.client)
    const mine = await subscribed(me.client)
    const theirs = await subscribed(other.client)
    const signal = await raise(other.being.id, "Their own news", "system")
    await arrives(theirs.device, signal.signal.id)
    const marker = await raise(me.being.id, "marker", "system")
    await arrives(mine.device, marker.signal.id)
    expect(push.received(mine.device.name).map((message) => message.payload.id)).toEqual([marker.signal.id])
  })

  it("sends a test to the caller's own devices", async () => {
    const { client } = await registerMember(node, owner.client)
    const { device } = await subscribed(client)
    const test = await run(client.api.push.sendTest())
    expect(test.subscriptions).toBe(1)
    const [message] = await arrives(device, test.signalId)
    expect(message!.payload).toMatchObject({ kind: "alert", title: "A test notification from your node" })
  })
})

describe("the push service's answers", () => {
  it("deletes a subscription the push service says is gone (410)", async () => {
    const { client, being } = await registerMember(node, owner.client)
    const kept = await subscribed(client)
    const gone = await subscribed(client)
    push.script(gone.device.name, { status: 410 })
    const before = await metric("gone")
    const signal = await raise(being.id, "Still there?", "system")
    await arrives(gone.device, signal.signal.id)
    await arrives(kept.device, signal.signal.id)
    await until("the gone subscription deleted", async () => {
      const rows = await run(client.api.push.listSubscriptions())
      return rows.length === 1 && rows
    })
    expect((await run(client.api.push.listSubscriptions())).map((row) => row.id)).toEqual([kept.id])
    expect(await metric("gone")).toBe(before + 1)
  })

  it("tries again after a 503, when its Retry-After says", async () => {
    const { client, being } = await registerMember(node, owner.client)
    const { device } = await subscribed(client)
    push.script(
      device.name,
      { status: 503, headers: { "retry-after": "1" } },
      { status: 429, headers: { "retry-after": "1" } }
    )
    const retried = await metric("retried")
    const sent = await metric("sent")
    const signal = await raise(being.id, "Busy service", "system")
    const tries = await arrives(device, signal.signal.id, 3, 15_000)
    expect(tries.map((message) => message.status)).toEqual([503, 429, 201])
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(900)
    expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(900)
    expect(tries.map((message) => message.payload)).toEqual([tries[0]!.payload, tries[0]!.payload, tries[0]!.payload])
    await until("the sent message counted", async () => (await metric("sent")) >= sent + 1)
    expect(await metric("retried")).toBe(retried + 2)
    expect((await run(client.api.push.listSubscriptions())).length).toBe(1)
  })

  it("gives a message up when the push service asks to wait past the hour, and keeps the subscription", async () => {
    const { client, being } = await registerMember(node, owner.client)
    const { device } = await subscribed(client)
    push.script(device.name, { status: 503, headers: { "retry-after": "7200" } })
    const expired = await metric("expired")
    const retried = await metric("retried")
    const signal = await raise(being.id, "Come back later", "system")
    await arrives(device, signal.signal.id)
    await until("the message given up", async () => (await metric("expired")) === expired + 1)
    expect(await metric("retried")).toBe(retried)
    expect(pushedTo(device, signal.signal.id)).toHaveLength(1)
    expect(await run(client.api.push.listSubscriptions())).toHaveLength(1)
  })
})

import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { greetingFor, localHour } from "../../host/desktop/now.ts"
import { Signals } from "../../host/desktop/signals.ts"
import { inNode } from "../support/live.ts"
import { nodeWithOwner, registerMember } from "../support/node.ts"

const context = nodeWithOwner()

const widget = (id: string, overrides: Record<string, unknown> = {}) => ({ id, type: "core.signals", column: 0, order: 0, ...overrides })

describe("widget layout", () => {
  it("answers a new being the default layout, never stored", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const answer = await member.client.get("/api/desktop/widgets")
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({
      widgets: [
        { id: "now", type: "core.now", column: 0, order: 0 },
        { id: "signals", type: "core.signals", column: 0, order: 1 }
      ],
      updatedAt: null
    })
  })

  it("replaces the layout with PUT and reads it back; another being's layout is untouched", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const layout = {
      widgets: [
        widget("a", { type: "weather.forecast", column: 2, order: 5, config: { city: "Lyon", units: "metric" } }),
        widget("b", { type: "core.now", column: 1, order: 0 })
      ]
    }
    const put = await member.client.request("PUT", "/api/desktop/widgets", layout)
    expect(put.status).toBe(200)
    expect(put.body.widgets).toEqual(layout.widgets)
    expect(Date.parse(put.body.updatedAt)).not.toBeNaN()
    expect((await member.client.get("/api/desktop/widgets")).body).toEqual(put.body)

    const emptied = await member.client.request("PUT", "/api/desktop/widgets", { widgets: [] })
    expect(emptied.body.widgets).toEqual([])
    expect((await member.client.get("/api/desktop/widgets")).body.widgets).toEqual([])
    expect((await context.owner.client.get("/api/desktop/widgets")).body.updatedAt).toBeNull()
  })

  it("refuses a layout that breaks the limits (400) and keeps the stored one", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const stored = await member.client.request("PUT", "/api/desktop/widgets", { widgets: [widget("keep")] })
    for (const body of [
      {},
      { widgets: "all of them" },
      { widgets: [widget("x", { column: 3 })] },
      { widgets: [widget("x", { order: -1 })] },
      { widgets: [widget("x", { column: 0.5 })] },
      { widgets: [widget("x", { type: "NoNamespace" })] },
      { widgets: [widget("bad id!")] },
      { widgets: [widget("x"), widget("x")] },
      { widgets: Array.from({ length: 25 }, (_, i) => widget(`w${i}`)) },
      { widgets: [widget("x", { config: { blob: "x".repeat(5000) } })] },
      { widgets: [widget("x", { config: "not an object" })] }
    ]) {
      const answer = await member.client.request("PUT", "/api/desktop/widgets", body)
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(answer.body.error).toBe("invalid_request")
    }
    expect((await member.client.get("/api/desktop/widgets")).body).toEqual(stored.body)
  })
})

describe("GET /api/desktop/now", () => {
  it("greets the being by local time and sums up its open signals, most pressing first", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const raise = (input: Record<string, unknown>) =>
      inNode(context.node, Effect.flatMap(Signals, (signals) => signals.raise(member.being.id, Schema.decodeUnknownSync(SignalInput)(input), "test")))
    await raise({ title: "low", priority: "low" })
    const urgent = await raise({ title: "urgent", priority: "urgent" })
    const normal = await raise({ title: "normal" })
    await raise({ title: "high", priority: "high" })
    await member.client.post(`/api/desktop/signals/${normal.signal.id}/dismiss`)

    const answer = await member.client.get("/api/desktop/now?tz=Asia/Tokyo")
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body).sort()).toEqual(["being", "greeting", "openSignals", "serverTime", "timeZone"])
    expect(answer.body.being).toEqual({ id: member.being.id, displayName: member.registration.displayName })
    expect(answer.body.timeZone).toBe("Asia/Tokyo")
    const serverTime = new Date(answer.body.serverTime)
    expect(Math.abs(serverTime.getTime() - Date.now())).toBeLessThan(5000)
    expect(answer.body.greeting).toBe(greetingFor(localHour(serverTime, "Asia/Tokyo"), member.registration.displayName))
    expect(answer.body.openSignals.count).toBe(3)
    expect(answer.body.openSignals.top.map((signal: { title: string }) => signal.title)).toEqual(["urgent", "high", "low"])
    expect(answer.body.openSignals.top[0]).toEqual(urgent.signal)

    const local = await member.client.get("/api/desktop/now")
    expect(local.body.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
    expect((await member.client.get("/api/desktop/now?tz=Mars/Olympus")).status).toBe(400)
  })

  it("says good morning, afternoon and evening at the right hours", () => {
    expect(greetingFor(4, "Ada")).toBe("Good evening, Ada")
    expect(greetingFor(5, "Ada")).toBe("Good morning, Ada")
    expect(greetingFor(11, "Ada")).toBe("Good morning, Ada")
    expect(greetingFor(12, "Ada")).toBe("Good afternoon, Ada")
    expect(greetingFor(17, "Ada")).toBe("Good afternoon, Ada")
    expect(greetingFor(18, "Ada")).toBe("Good evening, Ada")
    expect(localHour(new Date("2030-01-01T23:30:00Z"), "Asia/Tokyo")).toBe(8)
    expect(localHour(new Date("2030-01-01T00:30:00Z"), "UTC")).toBe(0)
  })
})

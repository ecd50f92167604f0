import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { SignalInput } from "../../actors/being/contract/signal.ts"
import { WidgetLayoutRequest } from "../../extensions/desktop/contract/records.ts"
import { greetingFor, localHour } from "../../extensions/desktop/now.ts"
import { Signals } from "../../extensions/desktop/contract/signals.ts"
import { inNode } from "../support/live.ts"
import { apiError, nodeWithOwner, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

const widget = (id: string, overrides: Record<string, unknown> = {}) => ({
  id,
  type: "core.signals",
  column: 0,
  order: 0,
  ...overrides
})

/** A layout as the contract types it. */
const layoutOf = (widgets: ReadonlyArray<Record<string, unknown>>) =>
  Schema.decodeUnknownSync(WidgetLayoutRequest)({ widgets })

describe("widget layout", () => {
  it("answers a new being the default layout, never stored", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const answer = await run(member.client.api.desktop.getWidgets())
    expect(answer).toEqual({
      widgets: [
        { id: "now", type: "core.now", column: 0, order: 0 },
        { id: "signals", type: "core.signals", column: 0, order: 1 }
      ],
      updatedAt: null
    })
  })

  it("replaces the layout with PUT and reads it back; another being's layout is untouched", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const layout = layoutOf([
      widget("a", { type: "weather.forecast", column: 2, order: 5, config: { city: "Lyon", units: "metric" } }),
      widget("b", { type: "core.now", column: 1, order: 0 })
    ])
    const desktop = member.client.api.desktop
    const put = await run(desktop.putWidgets({ payload: layout }))
    expect(put.widgets).toEqual(layout.widgets)
    expect(Date.parse(put.updatedAt!)).not.toBeNaN()
    expect(await run(desktop.getWidgets())).toEqual(put)

    const emptied = await run(desktop.putWidgets({ payload: { widgets: [] } }))
    expect(emptied.widgets).toEqual([])
    expect((await run(desktop.getWidgets())).widgets).toEqual([])
    expect((await run(context.owner.client.api.desktop.getWidgets())).updatedAt).toBeNull()
  })

  it("refuses a layout that breaks the limits (400) and keeps the stored one", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const stored = await run(member.client.api.desktop.putWidgets({ payload: layoutOf([widget("keep")]) }))
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
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
      const answer = await member.client.raw("PUT", "/api/desktop/widgets", body)
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
    expect(await run(member.client.api.desktop.getWidgets())).toEqual(stored)
  })
})

describe("GET /api/desktop/now", () => {
  it("greets the being by local time and sums up its open signals, most pressing first", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const raise = (input: Record<string, unknown>) =>
      inNode(
        context.node,
        Effect.flatMap(Signals, (signals) =>
          signals.raise(member.being.id, Schema.decodeUnknownSync(SignalInput)(input), "test", "system")
        )
      )
    await raise({ title: "low", priority: "low" })
    const urgent = await raise({ title: "urgent", priority: "urgent" })
    const normal = await raise({ title: "normal" })
    await raise({ title: "high", priority: "high" })
    await run(member.client.api.desktop.dismissSignal({ path: { id: normal.signal.id } }))

    const answer = await run(member.client.api.desktop.now({ urlParams: { tz: "Asia/Tokyo" } }))
    // The fields as the wire carried them: the typed client's decoding would drop one the contract does not list.
    const wire = await member.client.raw("GET", "/api/desktop/now?tz=Asia/Tokyo")
    expect(Object.keys(wire.body as object).sort()).toEqual([
      "being",
      "greeting",
      "heldNudges",
      "openSignals",
      "serverTime",
      "timeZone"
    ])
    expect(answer.being).toEqual({ id: member.being.id, displayName: member.registration.displayName })
    expect(answer.timeZone).toBe("Asia/Tokyo")
    const serverTime = new Date(answer.serverTime)
    expect(Math.abs(serverTime.getTime() - Date.now())).toBeLessThan(5000)
    expect(answer.greeting).toBe(greetingFor(localHour(serverTime, "Asia/Tokyo"), member.registration.displayName))
    expect(answer.openSignals.count).toBe(3)
    expect(answer.heldNudges).toBe(0)
    expect(answer.openSignals.top.map((signal) => signal.title)).toEqual(["urgent", "high", "low"])
    expect(answer.openSignals.top[0]).toEqual(urgent.signal)

    const local = await run(member.client.api.desktop.now({ urlParams: {} }))
    expect(local.timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
    // A zone the contract's schema refuses before it leaves the typed client: sent raw.
    expect((await member.client.raw("GET", "/api/desktop/now?tz=Mars/Olympus")).status).toBe(400)
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

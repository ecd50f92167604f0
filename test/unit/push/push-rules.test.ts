/**
 * The push feature's small rules: which endpoints the node sends to, a device's name from its User-Agent, a push
 * service's Retry-After read as seconds or a date, the urgency a priority asks for, and the payload a signal makes.
 */
import { describe, expect, it } from "vitest"
import type { Signal } from "../../../actors/being/contract/signal.ts"
import { payloadOf, retryAfterMs, urgencyOf } from "../../../extensions/push/sender.ts"
import { deviceName, endpointRefusal } from "../../../extensions/push/subscriptions.ts"

const signal = (priority: Signal["priority"]): Signal =>
  ({
    id: "sig-1",
    beingId: "b-1",
    kind: "decision",
    title: "Order more coffee?",
    body: "The beans run out on Friday.",
    options: [{ id: "yes", label: "Order it" }],
    priority,
    source: "test",
    evidence: []
  }) as unknown as Signal

describe("the push feature's rules", () => {
  it("sends to https endpoints, and to http on loopback only where allowed", () => {
    expect(endpointRefusal("https://fcm.googleapis.com/fcm/send/abc", false)).toBeNull()
    expect(endpointRefusal("http://127.0.0.1:9000/push/a", true)).toBeNull()
    expect(endpointRefusal("http://[::1]:9000/push/a", true)).toBeNull()
    expect(endpointRefusal("http://localhost:9000/push/a", true)).toBeNull()
    expect(endpointRefusal("http://127.0.0.1:9000/push/a", false)).toContain("https:")
    expect(endpointRefusal("http://10.0.0.2/push/a", true)).toContain("loopback")
    expect(endpointRefusal("http://127.0.0.1.example.org/push", true)).not.toBeNull()
    expect(endpointRefusal("wss://push.example.org/a", true)).not.toBeNull()
    expect(endpointRefusal("https://user:pw@push.example.org/a", false)).toContain("password")
    expect(endpointRefusal("not a url", false)).toContain("not a URL")
  })

  it("names a device from its browser's User-Agent", () => {
    expect(
      deviceName("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130.0 Mobile Safari/537.36")
    ).toBe("Chrome on Android")
    expect(
      deviceName(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Safari/604.1"
      )
    ).toBe("Safari on iOS")
    expect(deviceName("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0")).toBe(
      "Firefox on Linux"
    )
    expect(deviceName("Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0")).toBe(
      "Edge on Windows"
    )
    expect(deviceName(undefined)).toBe("A browser")
  })

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2030-01-01T00:00:00Z")
    expect(retryAfterMs("120", now)).toBe(120_000)
    expect(retryAfterMs("Tue, 01 Jan 2030 00:05:00 GMT", now)).toBe(300_000)
    expect(retryAfterMs("Mon, 31 Dec 2029 23:00:00 GMT", now)).toBe(0)
    expect(retryAfterMs(undefined, now)).toBeNull()
    expect(retryAfterMs("soon", now)).toBeNull()
  })

  it("asks for high urgency for urgent and high signals, and carries no body, option or source", () => {
    expect(
      ["low", "normal", "high", "urgent"].map((priority) => urgencyOf(signal(priority as Signal["priority"])))
    ).toEqual(["normal", "normal", "high", "high"])
    expect(payloadOf(signal("normal"))).toEqual({
      type: "signal",
      id: "sig-1",
      kind: "decision",
      title: "Order more coffee?",
      priority: "normal",
      url: "/?signal=sig-1"
    })
  })
})

import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import { fromAnotherSite } from "../../../host/http/same-origin.ts"

const served = { publicUrl: Option.none(), cookieDomain: Option.none() }
const behindProxy = { publicUrl: Option.some("https://node.example.org"), cookieDomain: Option.some(".example.org") }

describe("fromAnotherSite", () => {
  it("without PUBLIC_URL, takes the scheme, host and port the node is served at", () => {
    const host = "127.0.0.1:8787"
    expect(fromAnotherSite({ host, origin: "http://127.0.0.1:8787" }, served)).toBe(false)
    expect(fromAnotherSite({ host, origin: "https://127.0.0.1:8787" }, served)).toBe(true)
    expect(fromAnotherSite({ host, origin: "http://127.0.0.1:8788" }, served)).toBe(true)
    expect(fromAnotherSite({ host, origin: "http://localhost:8787" }, served)).toBe(true)
    expect(fromAnotherSite({ host: "node.lan", origin: "http://node.lan:80" }, served)).toBe(false)
  })

  it("with PUBLIC_URL, takes that origin only (an http page on the same host is not the https node)", () => {
    const host = "node.example.org"
    expect(fromAnotherSite({ host, origin: "https://node.example.org" }, behindProxy)).toBe(false)
    expect(fromAnotherSite({ host, origin: "http://node.example.org" }, behindProxy)).toBe(true)
    expect(fromAnotherSite({ host: "127.0.0.1:8787", origin: "http://127.0.0.1:8787" }, behindProxy)).toBe(true)
  })

  it("lets COOKIE_DOMAIN's hosts in, over the node's scheme", () => {
    expect(fromAnotherSite({ origin: "https://app.example.org" }, behindProxy)).toBe(false)
    expect(fromAnotherSite({ origin: "https://example.org" }, behindProxy)).toBe(false)
    expect(fromAnotherSite({ origin: "http://app.example.org" }, behindProxy)).toBe(true)
    expect(fromAnotherSite({ origin: "https://badexample.org" }, behindProxy)).toBe(true)
    expect(fromAnotherSite({ origin: "https://example.org.evil.example" }, behindProxy)).toBe(true)
  })

  it("believes Sec-Fetch-Site: cross-site, lets a request with neither header pass, and refuses an unreadable Origin", () => {
    expect(fromAnotherSite({ host: "a:1", origin: "http://a:1", "sec-fetch-site": "cross-site" }, served)).toBe(true)
    expect(fromAnotherSite({ "sec-fetch-site": "cross-site" }, served)).toBe(true)
    expect(fromAnotherSite({ "sec-fetch-site": "same-site" }, served)).toBe(false)
    expect(fromAnotherSite({ host: "a:1" }, served)).toBe(false)
    expect(fromAnotherSite({ host: "a:1", origin: "null" }, served)).toBe(true)
    expect(fromAnotherSite({ origin: "http://a:1" }, served)).toBe(true)
  })
})

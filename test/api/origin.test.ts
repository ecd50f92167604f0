/**
 * A page on another site must not act for a signed-in visitor: every state-changing request
 * whose Origin is not the node's own (scheme, host and port), or whose Sec-Fetch-Site says
 * cross-site, is a 403 `forbidden_origin` that changes nothing. Scripts and servers send
 * neither header and pass; so do reads.
 */
import { describe, expect, it } from "vitest"
import { refusedHandshake } from "../support/live.ts"
import { Client, nodeWithOwner, person } from "../support/node.ts"

const context = nodeWithOwner()

const evil = { origin: "https://evil.example" }

describe("state-changing requests from another site", () => {
  it("are refused with 403 forbidden_origin and change nothing, even with the visitor's cookie", async () => {
    const owner = context.owner.client
    const minted = await owner.request("POST", "/api/auth/codes", { count: 1 }, evil)
    expect(minted.status).toBe(403)
    expect(minted.body.error).toBe("forbidden_origin")
    const loggedOutEverywhere = await owner.request("POST", "/api/auth/logout/all", {}, { "sec-fetch-site": "cross-site" })
    expect(loggedOutEverywhere.status).toBe(403)
    expect(loggedOutEverywhere.body.error).toBe("forbidden_origin")
    // The session still stands and no code was minted.
    expect((await owner.get("/api/auth/me")).status).toBe(200)
    expect((await owner.get("/api/auth/codes/unused")).body).toEqual([])

    const joined = await new Client(context.node.url, evil).post("/api/auth/waitlist", { email: "csrf@example.org", name: "x", why: "" })
    expect(joined.status).toBe(403)
    expect((await owner.get("/api/auth/waitlist")).body).toEqual([])
  })

  it("count the scheme and port: the same host over https, or on another port, is another origin", async () => {
    const { host, port } = new URL(context.node.url)
    for (const origin of [`https://${host}`, `http://127.0.0.1:${Number(port) + 1}`, "http://localhost", "null"]) {
      const answer = await new Client(context.node.url, { origin }).post("/api/auth/login", { email: "a@b.cd", password: "x" })
      expect(answer.status, origin).toBe(403)
      expect(answer.body.error).toBe("forbidden_origin")
    }
  })

  it("pass from the node's own pages, and from scripts that send neither header", async () => {
    const own = new Client(context.node.url, { origin: context.node.url, "sec-fetch-site": "same-origin" })
    const registered = await own.post("/api/auth/register", person("NOT-A-CODE"))
    expect(registered.status).toBe(403)
    expect(registered.body.error).toBe("invalid_access_code")
    const script = await new Client(context.node.url).post("/api/auth/login", { email: "a@b.cd", password: "x" })
    expect(script.status).toBe(401)
  })

  it("reads from another site still answer (the browser keeps them from that site's page)", async () => {
    const answer = await new Client(context.node.url, { ...evil, "sec-fetch-site": "cross-site" }).get("/api/health")
    expect(answer.status).toBe(200)
  })
})

describe("the live channel handshake", () => {
  it("compares the scheme too: the node's host and port over https is another origin", async () => {
    const { host } = new URL(context.node.url)
    const refused = await refusedHandshake(context.node, context.owner.client, { origin: `https://${host}` })
    expect(refused.status).toBe(403)
    expect(refused.body.error).toBe("forbidden_origin")
  })
})

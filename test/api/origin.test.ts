/**
 * A page on another site must not act for a signed-in visitor: every state-changing request
 * whose Origin is not the node's own (scheme, host and port), or whose Sec-Fetch-Site says
 * cross-site, is a 403 `forbidden_origin` that changes nothing. Scripts and servers send
 * neither header and pass; so do reads.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { describe, expect, it } from "vitest"
import { NodeApi } from "../../host/contract/api.ts"
import { declaredPolicy } from "../../kernel/contract/endpoint-policy.ts"
import { refusedHandshake } from "../support/live.ts"
import { apiError, Client, firstPage, nodeWithOwner, person, refused, run } from "../support/node.ts"

const context = nodeWithOwner()

const evil = { origin: "https://evil.example" }

describe("state-changing requests from another site", () => {
  it("are refused with 403 forbidden_origin and change nothing, even with the visitor's cookie", async () => {
    const owner = context.owner.client
    // One request's own headers are the point here: sent raw.
    const minted = await owner.raw("POST", "/api/auth/codes", { count: 1 }, evil)
    expect(minted.status).toBe(403)
    expect(apiError(minted).error).toBe("forbidden_origin")
    const loggedOutEverywhere = await owner.raw("POST", "/api/auth/logout/all", {}, { "sec-fetch-site": "cross-site" })
    expect(loggedOutEverywhere.status).toBe(403)
    expect(apiError(loggedOutEverywhere).error).toBe("forbidden_origin")
    // The session still stands and no code was minted.
    await run(owner.api.auth.me())
    expect(await run(owner.api.auth.listUnusedCodes({ urlParams: firstPage }))).toEqual([])

    const joined = await refused(
      new Client(context.node.url, evil).api.authPublic.joinWaitlist({
        payload: { email: "csrf@example.org", name: "x", why: "" }
      })
    )
    expect(joined.status).toBe(403)
    expect(await run(owner.api.auth.listWaitlist({ urlParams: firstPage }))).toEqual([])
  })

  it("count the scheme and port: the same host over https, or on another port, is another origin", async () => {
    const { host, port } = new URL(context.node.url)
    for (const origin of [`https://${host}`, `http://127.0.0.1:${Number(port) + 1}`, "http://localhost", "null"]) {
      const answer = await refused(
        new Client(context.node.url, { origin }).api.authPublic.login({ payload: { email: "a@b.cd", password: "x" } })
      )
      expect(answer.status, origin).toBe(403)
      expect(answer.body.error).toBe("forbidden_origin")
    }
  })

  it("pass from the node's own pages, and from scripts that send neither header", async () => {
    const own = new Client(context.node.url, { origin: context.node.url, "sec-fetch-site": "same-origin" })
    const registered = await refused(own.api.authPublic.register({ payload: person("NOT-A-CODE") }))
    expect(registered.status).toBe(403)
    expect(registered.body.error).toBe("invalid_access_code")
    const script = await refused(
      new Client(context.node.url).api.authPublic.login({ payload: { email: "a@b.cd", password: "x" } })
    )
    expect(script.status).toBe(401)
  })

  it("covers every state-changing route of the contract but the signed wire routes", async () => {
    const changing: Array<{ method: string; path: string }> = []
    const wire: Array<string> = []
    HttpApi.reflect(NodeApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, mergedAnnotations }) => {
        if (declaredPolicy(mergedAnnotations).wire) wire.push(`${endpoint.method} ${endpoint.path}`)
        else if (!["GET", "HEAD", "OPTIONS"].includes(endpoint.method)) {
          changing.push({ method: endpoint.method, path: endpoint.path.replace(/:[A-Za-z]+/g, "x") })
        }
      }
    })
    // The exemption is declared, not inferred: exactly the federation routes other nodes call.
    expect(wire.sort()).toEqual([
      "GET /api/federation/capabilities",
      "POST /api/federation/directory/register",
      "POST /api/federation/directory/resolve",
      "POST /api/federation/peer/collect",
      "POST /api/federation/peer/deliver",
      "POST /api/federation/peer/hello",
      "POST /api/federation/relay/collect",
      "POST /api/federation/relay/deposit",
      "POST /api/federation/relay/enrolment",
      "POST /api/federation/seed/act",
      "POST /api/federation/seed/beat",
      "POST /api/federation/seed/knock",
      "POST /api/twin/webhooks/:provider/:connectionId"
    ])
    expect(changing.length).toBeGreaterThan(50)
    for (const { method, path } of changing) {
      const answer = await context.owner.client.raw(method as "POST", path, {}, { "sec-fetch-site": "cross-site" })
      expect([method, path, answer.status, apiError(answer).error]).toEqual([method, path, 403, "forbidden_origin"])
    }
    await run(context.owner.client.api.auth.me())
  })

  it("reads from another site still answer (the browser keeps them from that site's page)", async () => {
    await run(new Client(context.node.url, { ...evil, "sec-fetch-site": "cross-site" }).api.health.health())
  })
})

describe("the live channel handshake", () => {
  it("compares the scheme too: the node's host and port over https is another origin", async () => {
    const { host } = new URL(context.node.url)
    const handshake = await refusedHandshake(context.node, context.owner.client, { origin: `https://${host}` })
    expect(handshake.status).toBe(403)
    expect(handshake.body).toMatchObject({ error: "forbidden_origin" })
  })
})

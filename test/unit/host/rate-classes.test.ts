/**
 * Every route of the spec's rate-limited families declares its class on the endpoint itself
 * (the limiter reads nothing else), so a new route of those families cannot forget it.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import { describe, expect, it } from "vitest"
import { NodeApi } from "../../../host/contract/api.ts"
import { declaredPolicy, type RateClassName } from "../../../kernel/contract/endpoint-policy.ts"

interface Declared {
  readonly group: string
  readonly method: string
  readonly path: string
  readonly rateClass: RateClassName | null
}

const endpoints: Array<Declared> = []
HttpApi.reflect(NodeApi, {
  onGroup: () => {},
  onEndpoint: ({ group, endpoint, mergedAnnotations }) => {
    endpoints.push({
      group: group.identifier,
      method: endpoint.method,
      path: endpoint.path,
      rateClass: declaredPolicy(mergedAnnotations).rateClass
    })
  }
})

const classOf = (method: string, path: string) => {
  const found = endpoints.find((endpoint) => endpoint.method === method && endpoint.path === path)
  if (found === undefined) throw new Error(`${method} ${path} is not in the contract`)
  return found.rateClass
}

/** The spec's Limits, route by route. */
const families: ReadonlyArray<readonly [RateClassName, ReadonlyArray<string>]> = [
  [
    "auth",
    [
      "/api/auth/login",
      "/api/auth/register",
      "/api/auth/verify",
      "/api/auth/password/reset/request",
      "/api/auth/password/reset",
      "/api/auth/password"
    ]
  ],
  ["waitlist", ["/api/auth/waitlist"]],
  ["owner", ["/api/auth/codes", "/api/auth/codes/send"]],
  [
    "llm",
    [
      "/api/studio/projects",
      "/api/studio/omnibar",
      "/api/studio/projects/:id/resume",
      "/api/twin/learn",
      "/api/twin/reflect",
      "/api/beings/life/tick",
      "/api/beings/life/greet",
      "/api/market/listings/:id/buy",
      "/api/threads/:id/messages",
      "/api/threads/:id/messages/:messageId/speech"
    ]
  ],
  ["upload", ["/api/files/upload", "/api/twin/voice/transcribe"]],
  ["bridge", ["/api/modules/:id/:extensionId/call", "/api/modules/:id/:extensionId/file"]],
  [
    "wire",
    [
      "/api/federation/peer/hello",
      "/api/federation/peer/deliver",
      "/api/federation/peer/collect",
      "/api/federation/seed/knock",
      "/api/federation/seed/beat",
      "/api/federation/seed/act",
      "/api/federation/relay/enrolment",
      "/api/federation/relay/deposit",
      "/api/federation/relay/collect",
      "/api/federation/directory/register",
      "/api/federation/directory/resolve",
      "/api/twin/webhooks/:provider/:connectionId"
    ]
  ]
]

describe("rate classes in the contract", () => {
  it("puts every POST of the auth, waitlist, owner and llm families in its class", () => {
    for (const [rateClass, paths] of families) {
      for (const path of paths) expect(classOf("POST", path), path).toBe(rateClass)
    }
  })

  it("puts the owner's switches of the twin's learning sources in the owner class", () => {
    expect(classOf("PUT", "/api/twin/learning")).toBe("owner")
  })

  it("counts a transcription in the llm class too: it is an upload that spends model budget", () => {
    const transcribe: Array<RateClassName> = []
    HttpApi.reflect(NodeApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, mergedAnnotations }) => {
        if (endpoint.path === "/api/twin/voice/transcribe")
          transcribe.push(...declaredPolicy(mergedAnnotations).alsoCountsIn)
      }
    })
    expect(transcribe).toEqual(["llm"])
  })

  it("puts every public POST of the auth routes in the auth or waitlist class", () => {
    const publicPosts = endpoints.filter((endpoint) => endpoint.group === "authPublic" && endpoint.method === "POST")
    expect(publicPosts.length).toBeGreaterThanOrEqual(6)
    for (const endpoint of publicPosts) {
      expect(endpoint.rateClass, endpoint.path).toBe(endpoint.path === "/api/auth/waitlist" ? "waitlist" : "auth")
    }
  })

  it("puts every public wire route (federation, webhook deliveries), and only those, in the wire class", () => {
    const wire = endpoints
      .filter((endpoint) => endpoint.rateClass === "wire")
      .map((endpoint) => `${endpoint.method} ${endpoint.path}`)
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
    for (const group of ["federationWire", "federationSeedWire"]) {
      expect(
        endpoints.filter((endpoint) => endpoint.group === group).every((endpoint) => endpoint.rateClass === "wire")
      ).toBe(true)
    }
  })

  it("puts every POST that mints or sends access codes in the owner class", () => {
    for (const endpoint of endpoints.filter((e) => e.method === "POST" && e.path.startsWith("/api/auth/codes"))) {
      expect(endpoint.rateClass, endpoint.path).toBe("owner")
    }
  })

  it("puts the owner's OAuth client routes in the owner class", () => {
    expect(
      endpoints.filter((e) => e.group === "oauthClients").map((e) => `${e.method} ${e.path} ${e.rateClass}`)
    ).toEqual([
      "GET /api/twin/oauth-clients owner",
      "PUT /api/twin/oauth-clients/:provider owner",
      "DELETE /api/twin/oauth-clients/:provider owner"
    ])
  })

  it("puts the plan edit in the owner class, and a gate's answer in the global budget only", () => {
    expect(classOf("PUT", "/api/studio/projects/:id/plan")).toBe("owner")
    expect(classOf("POST", "/api/studio/queue/:taskId/approve")).toBeNull()
    expect(classOf("POST", "/api/studio/queue/:taskId/reject")).toBeNull()
  })

  it("leaves the omnibar's search in the global budget only: it spends no model budget", () => {
    expect(classOf("GET", "/api/search")).toBeNull()
  })
})

import * as HttpApi from "@effect/platform/HttpApi"
import type * as HttpMethod from "@effect/platform/HttpMethod"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NodeApi } from "../../host/contract/api.ts"
import { Authentication } from "../../extensions/accounts/contract/session.ts"
import { at } from "../support/json.ts"
import { apiError, Client, startNode, type TestNode } from "../support/node.ts"

let node: TestNode
beforeAll(async () => {
  node = await startNode()
})
afterAll(() => node.close())

interface Route {
  readonly method: HttpMethod.HttpMethod
  readonly path: string
  readonly protected: boolean
}

/** Every route of the contract, read from the one declaration. */
const routes: Route[] = []
HttpApi.reflect(NodeApi, {
  onGroup: () => {},
  onEndpoint: ({ endpoint, middleware }) => {
    routes.push({
      method: endpoint.method,
      path: endpoint.path,
      protected: [...middleware].some((tag) => tag.key === Authentication.key)
    })
  }
})

const concrete = (path: string) => path.replace(/:(\w+)/g, "x")

describe("the HTTP contract", () => {
  it("declares every auth route of the spec", () => {
    const declared = routes.map((r) => `${r.method} ${r.path}`)
    for (const route of [
      "POST /api/auth/register",
      "POST /api/auth/login",
      "POST /api/auth/logout",
      "GET /api/auth/me",
      "POST /api/auth/waitlist",
      "GET /api/auth/codes",
      "POST /api/auth/codes",
      "GET /api/auth/codes/unused",
      "DELETE /api/auth/codes/:code",
      "POST /api/auth/logout/all",
      "GET /api/auth/sessions",
      "DELETE /api/auth/sessions",
      "GET /api/auth/waitlist",
      "GET /api/auth/waitlist.csv",
      "GET /api/auth/email",
      "POST /api/auth/verify/send",
      "POST /api/auth/verify",
      "POST /api/auth/password/reset/request",
      "POST /api/auth/password/reset",
      "POST /api/auth/password",
      "POST /api/auth/codes/send",
      "GET /api/auth/codes/sent",
      "GET /api/health",
      "GET /api/plugins",
      "GET /api/llm/inference",
      "GET /api/llm/usage",
      "GET /api/desktop/signals",
      "POST /api/desktop/signals",
      "POST /api/desktop/signals/:id/answer",
      "POST /api/desktop/signals/:id/dismiss",
      "GET /api/desktop/widgets",
      "PUT /api/desktop/widgets",
      "GET /api/desktop/now",
      "GET /api/studio/skills",
      "POST /api/studio/skills/invoke",
      "GET /api/studio/agents",
      "POST /api/studio/agents",
      "GET /api/studio/agents/:id",
      "PUT /api/studio/agents/:id",
      "DELETE /api/studio/agents/:id",
      "GET /api/studio/generators",
      "POST /api/studio/generators",
      "GET /api/studio/generators/:id",
      "PUT /api/studio/generators/:id",
      "DELETE /api/studio/generators/:id",
      "POST /api/studio/projects",
      "GET /api/studio/projects",
      "GET /api/studio/projects/:id",
      "GET /api/studio/projects/:id/trace",
      "POST /api/studio/projects/:id/cancel",
      "POST /api/studio/projects/:id/resume",
      "PUT /api/studio/projects/:id/due",
      "PUT /api/studio/projects/:id/plan",
      "GET /api/studio/portfolio",
      "GET /api/studio/queue",
      "POST /api/studio/queue/:taskId/finish",
      "POST /api/studio/queue/:taskId/approve",
      "POST /api/studio/queue/:taskId/reject",
      "POST /api/studio/omnibar",
      "GET /api/search",
      "GET /api/files",
      "GET /api/files/search",
      "GET /api/files/read",
      "POST /api/files/upload"
    ]) {
      expect(declared).toContain(route)
    }
  })

  it("answers 401 `unauthorized` on every protected route without a session", async () => {
    const guarded = routes.filter((route) => route.protected)
    expect(guarded.length).toBeGreaterThan(15)
    // Raw: every route the reflection finds, each with a body the route may not read, sent a few
    // at a time by one client that has never signed in (one by one, ~200 routes took half a minute).
    const anonymous = new Client(node.url)
    const answers = await inBatches(guarded, 8, (route) =>
      // The upload and the transcription read multipart only: a JSON body is refused (415) before any session is looked
      // at.
      anonymous.raw(
        route.method,
        concrete(route.path),
        route.method === "GET" ||
          ["/api/files/upload", "/api/twin/voice/transcribe", "/api/twin/import"].includes(route.path)
          ? undefined
          : {}
      )
    )
    guarded.forEach((route, index) => {
      expect(answers[index]!.status, `${route.method} ${route.path}`).toBe(401)
      expect(apiError(answers[index]!), `${route.method} ${route.path}`).toMatchObject({
        error: "unauthorized",
        message: expect.any(String)
      })
    })
  })

  it("leaves open only the public routes the spec names", () => {
    const open = routes
      .filter((route) => !route.protected)
      .map((r) => `${r.method} ${r.path}`)
      .sort()
    expect(open).toEqual(
      [
        "GET /api/health",
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
        "POST /api/twin/webhooks/:provider/:connectionId",
        "POST /api/auth/login",
        "POST /api/auth/password/reset",
        "POST /api/auth/password/reset/request",
        "POST /api/auth/register",
        "POST /api/auth/verify",
        "POST /api/auth/waitlist",
        // Who is signed in, answered with no one to a visitor (docs/decisions.md, "Who is signed in, without a 401").
        "GET /api/auth/session",
        // MCP's transport: a client's bearer token, checked by the route itself (extensions/mcp/endpoint.ts).
        "DELETE /api/mcp",
        "GET /api/mcp",
        "POST /api/mcp",
        // The register page's restore, taken only while the node has no owner (docs/decisions.md "Restore from the
        // register page").
        "GET /api/setup/restore",
        "POST /api/setup/restore"
      ].sort()
    )
  })

  it("serves its OpenAPI document at /api/openapi.json", async () => {
    // A route outside the contract: read raw.
    const answer = await new Client(node.url).raw("GET", "/api/openapi.json")
    expect(answer.status).toBe(200)
    expect(at(answer.body, "openapi")).toMatch(/^3\./)
    expect(Object.keys(at(answer.body, "paths") ?? {})).toContain("/api/auth/register")
  })

  it("answers an unknown /api route with a 404 ApiError, for any method", async () => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      const answer = await new Client(node.url).raw(method, "/api/no/such/route", method === "GET" ? undefined : {})
      expect(answer.status).toBe(404)
      expect(answer.body).toMatchObject({ error: "not_found" })
    }
  })
})

/** Each item through `work`, at most `size` at once, answers in the items' order. */
const inBatches = async <A, B>(
  items: ReadonlyArray<A>,
  size: number,
  work: (item: A) => Promise<B>
): Promise<Array<B>> => {
  const answers: Array<B> = []
  for (let start = 0; start < items.length; start += size)
    answers.push(...(await Promise.all(items.slice(start, start + size).map(work))))
  return answers
}

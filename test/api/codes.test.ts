import type * as Effect from "effect/Effect"
import { beforeAll, describe, expect, it } from "vitest"
import {
  apiError,
  Client,
  firstPage,
  type Registered,
  nodeWithOwner,
  person,
  refused,
  registerMember,
  run
} from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

describe("access codes", () => {
  it("mints codes with a note for the owner; lists all and unused", async () => {
    const owner = context.owner.client.api.auth
    const minted = await run(owner.mintCodes({ payload: { count: 3, note: "friends" } }))
    expect(minted).toHaveLength(3)
    for (const code of minted) {
      expect(code).toMatchObject({ createdBy: context.owner.being.id, usedBy: null, usedAt: null, note: "friends" })
      expect(code.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)
    }
    const all = await run(owner.listCodes({ urlParams: firstPage }))
    const unused = await run(owner.listUnusedCodes({ urlParams: firstPage }))
    const codes = (rows: ReadonlyArray<{ code: string }>) => rows.map((row) => row.code)
    expect(codes(all)).toEqual(expect.arrayContaining([context.node.ownerCode, ...codes(minted)]))
    expect(codes(unused)).toEqual(expect.arrayContaining(codes(minted)))
    expect(codes(unused)).not.toContain(context.node.ownerCode)
    const spent = all.find((row) => row.code === context.node.ownerCode)
    expect(spent?.usedBy).toBe(context.owner.being.id)
  })

  it("refuses a bad mint body with 400 and mints nothing", async () => {
    const owner = context.owner.client
    const before = (await run(owner.api.auth.listCodes({ urlParams: firstPage }))).length
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const body of [{ count: 0 }, { count: 51 }, { count: 1.5 }, { count: "2" }, {}]) {
      const answer = await owner.raw("POST", "/api/auth/codes", body)
      expect(answer.status).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
    expect((await run(owner.api.auth.listCodes({ urlParams: firstPage }))).length).toBe(before)
  })

  it("is owner only: 403 for a member on every code route", async () => {
    const [code] = await run(context.owner.client.api.auth.mintCodes({ payload: { count: 1, note: "" } }))
    const auth = member.client.api.auth
    const calls: ReadonlyArray<readonly [string, Effect.Effect<unknown, unknown>]> = [
      ["GET /api/auth/codes", auth.listCodes({ urlParams: firstPage })],
      ["POST /api/auth/codes", auth.mintCodes({ payload: { count: 1, note: "" } })],
      ["GET /api/auth/codes/unused", auth.listUnusedCodes({ urlParams: firstPage })],
      ["DELETE /api/auth/codes/:code", auth.deleteCode({ path: { code: code!.code } })],
      ["POST /api/auth/codes/send", auth.sendInvite({ payload: { email: "a@example.org", note: "" } })],
      ["GET /api/auth/codes/sent", auth.listInvites({ urlParams: firstPage })]
    ]
    for (const [route, call] of calls) {
      const answer = await refused(call)
      expect(answer.status, route).toBe(403)
      expect(answer.body.error).toBe("forbidden")
    }
    expect(
      (await run(context.owner.client.api.auth.listUnusedCodes({ urlParams: firstPage }))).map((r) => r.code)
    ).toContain(code!.code)
  })

  it("deletes an unused code; refuses a used one and the bootstrap code with 400; 404 for unknown", async () => {
    const auth = context.owner.client.api.auth
    const [code] = await run(auth.mintCodes({ payload: { count: 1, note: "" } }))
    expect(await run(auth.deleteCode({ path: { code: code!.code } }))).toEqual({ ok: true })
    const gone = await refused(new Client(context.node.url).api.authPublic.register({ payload: person(code!.code) }))
    expect(gone.status).toBe(403)
    const bootstrap = await refused(auth.deleteCode({ path: { code: encodeURIComponent(context.node.ownerCode) } }))
    expect(bootstrap.status).toBe(400)
    expect(bootstrap.body.error).toBe("bootstrap_code")
    const usedCode = (await run(auth.listCodes({ urlParams: firstPage }))).find((row) => row.usedBy === member.being.id)
    const used = await refused(auth.deleteCode({ path: { code: usedCode!.code } }))
    expect(used.status).toBe(400)
    expect(used.body.error).toBe("code_used")
    expect((await refused(auth.deleteCode({ path: { code: "NOPE-NOPE-NOPE" } }))).status).toBe(404)
  })

  it("refuses invites by mail with 409 when the node cannot send mail, minting nothing", async () => {
    const auth = context.owner.client.api.auth
    const before = (await run(auth.listCodes({ urlParams: firstPage }))).length
    const answer = await refused(auth.sendInvite({ payload: { email: "friend@example.org", note: "hi" } }))
    expect(answer.status).toBe(409)
    expect(answer.body.error).toBe("email_not_configured")
    expect((await run(auth.listCodes({ urlParams: firstPage }))).length).toBe(before)
    expect((await run(auth.emailStatus())).emailConfigured).toBe(false)
  })
})

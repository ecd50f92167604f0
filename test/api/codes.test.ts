import { beforeAll, describe, expect, it } from "vitest"
import {Client, type Registered, nodeWithOwner, person, registerMember } from "../support/node.ts"

const context = nodeWithOwner()
let member: Registered

beforeAll(async () => {
  member = await registerMember(context.node, context.owner.client)
})

describe("access codes", () => {
  it("mints codes with a note for the owner; lists all and unused", async () => {
    const minted = await context.owner.client.post("/api/auth/codes", { count: 3, note: "friends" })
    expect(minted.status).toBe(200)
    expect(minted.body).toHaveLength(3)
    for (const code of minted.body) {
      expect(code).toMatchObject({ createdBy: context.owner.being.id, usedBy: null, usedAt: null, note: "friends" })
      expect(code.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)
    }
    const all = await context.owner.client.get("/api/auth/codes")
    const unused = await context.owner.client.get("/api/auth/codes/unused")
    const codes = (rows: { code: string }[]) => rows.map((row) => row.code)
    expect(codes(all.body)).toEqual(expect.arrayContaining([context.node.ownerCode, ...codes(minted.body)]))
    expect(codes(unused.body)).toEqual(expect.arrayContaining(codes(minted.body)))
    expect(codes(unused.body)).not.toContain(context.node.ownerCode)
    const spent = all.body.find((row: { code: string }) => row.code === context.node.ownerCode)
    expect(spent.usedBy).toBe(context.owner.being.id)
  })

  it("refuses a bad mint body with 400 and mints nothing", async () => {
    const before = (await context.owner.client.get("/api/auth/codes")).body.length
    for (const body of [{ count: 0 }, { count: 51 }, { count: 1.5 }, { count: "2" }, {}]) {
      const answer = await context.owner.client.post("/api/auth/codes", body)
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe("invalid_request")
    }
    expect((await context.owner.client.get("/api/auth/codes")).body.length).toBe(before)
  })

  it("is owner only: 403 for a member on every code route", async () => {
    const [code] = (await context.owner.client.post("/api/auth/codes", { count: 1 })).body
    for (const [method, path, body] of [
      ["GET", "/api/auth/codes"],
      ["POST", "/api/auth/codes", { count: 1 }],
      ["GET", "/api/auth/codes/unused"],
      ["DELETE", `/api/auth/codes/${code.code}`],
      ["POST", "/api/auth/codes/send", { email: "a@example.org", note: "" }],
      ["GET", "/api/auth/codes/sent"]
    ] as const) {
      const answer = await member.client.request(method, path, body)
      expect(answer.status, `${method} ${path}`).toBe(403)
      expect(answer.body.error).toBe("forbidden")
    }
    expect((await context.owner.client.get("/api/auth/codes/unused")).body.map((r: { code: string }) => r.code)).toContain(code.code)
  })

  it("deletes an unused code; refuses a used one and the bootstrap code with 400; 404 for unknown", async () => {
    const [code] = (await context.owner.client.post("/api/auth/codes", { count: 1 })).body
    expect((await context.owner.client.del(`/api/auth/codes/${code.code}`)).body).toEqual({ ok: true })
    const gone = await new Client(context.node.url).post("/api/auth/register", person(code.code))
    expect(gone.status).toBe(403)
    const bootstrap = await context.owner.client.del(`/api/auth/codes/${encodeURIComponent(context.node.ownerCode)}`)
    expect(bootstrap.status).toBe(400)
    expect(bootstrap.body.error).toBe("bootstrap_code")
    const usedCode = (await context.owner.client.get("/api/auth/codes")).body.find(
      (row: { usedBy: string | null }) => row.usedBy === member.being.id
    )
    const used = await context.owner.client.del(`/api/auth/codes/${usedCode.code}`)
    expect(used.status).toBe(400)
    expect(used.body.error).toBe("code_used")
    expect((await context.owner.client.del("/api/auth/codes/NOPE-NOPE-NOPE")).status).toBe(404)
  })

  it("refuses invites by mail with 409 when the node cannot send mail, minting nothing", async () => {
    const before = (await context.owner.client.get("/api/auth/codes")).body.length
    const answer = await context.owner.client.post("/api/auth/codes/send", { email: "friend@example.org", note: "hi" })
    expect(answer.status).toBe(409)
    expect(answer.body.error).toBe("email_not_configured")
    expect((await context.owner.client.get("/api/auth/codes")).body.length).toBe(before)
    expect((await context.owner.client.get("/api/auth/email")).body.emailConfigured).toBe(false)
  })
})

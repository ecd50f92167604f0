import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, person, registerMember, registerOwner, startNode, type TestNode } from "../support/node.ts"
import { SmtpServer } from "../support/smtp.ts"

let smtp: SmtpServer
let node: TestNode
let owner: Awaited<ReturnType<typeof registerOwner>>

beforeAll(async () => {
  smtp = await SmtpServer.start()
  node = await startNode({ smtpUrl: Option.some(Redacted.make(smtp.url)), mailFrom: "node@example.org" })
  owner = await registerOwner(node)
})
afterAll(async () => {
  await node.close()
  smtp.stop()
})

const tokenIn = (body: string, path: string) => body.match(new RegExp(`/${path}\\?token=([A-Za-z0-9_-]+)`))?.[1]

describe("email verification", () => {
  it("mails a link to the session's own address; the token confirms it once", async () => {
    const member = await registerMember(node, owner.client)
    const before = await member.client.get("/api/auth/email")
    expect(before.body).toMatchObject({ email: member.registration.email, verified: false, pending: false, emailConfigured: true })
    const sent = await member.client.post("/api/auth/verify/send", { email: "attacker@example.org" })
    expect(sent.status).toBe(200)
    expect(sent.body.pending).toBe(true)
    const [mail] = await smtp.waitFor(member.registration.email)
    expect(smtp.messages().some((m) => m.to.includes("attacker@example.org"))).toBe(false)
    const token = tokenIn(mail.body, "verify")!
    expect(token).toBeDefined()
    const verify = await new Client(node.url).post("/api/auth/verify", { token })
    expect(verify.body).toEqual({ ok: true })
    const after = await member.client.get("/api/auth/email")
    expect(after.body).toMatchObject({ verified: true, pending: false })
    const again = await new Client(node.url).post("/api/auth/verify", { token })
    expect(again.status).toBe(400)
    expect(again.body.error).toBe("invalid_token")
  })

  it("refuses an unknown token with 400", async () => {
    const answer = await new Client(node.url).post("/api/auth/verify", { token: "made-up" })
    expect(answer.status).toBe(400)
  })
})

describe("password reset", () => {
  it("answers the same for a known and an unknown address", async () => {
    const member = await registerMember(node, owner.client)
    const known = await new Client(node.url).post("/api/auth/password/reset/request", { email: member.registration.email })
    const unknown = await new Client(node.url).post("/api/auth/password/reset/request", { email: "ghost@example.org" })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(known.text).toBe(unknown.text)
    await smtp.waitFor(member.registration.email)
    expect(smtp.messages().some((m) => m.to.includes("ghost@example.org"))).toBe(false)
  })

  it("spends the token with the new password, drops every session, confirms the address", async () => {
    const member = await registerMember(node, owner.client)
    await new Client(node.url).post("/api/auth/password/reset/request", { email: member.registration.email })
    const [mail] = await smtp.waitFor(member.registration.email)
    const token = tokenIn(mail.body, "reset")!
    const weak = await new Client(node.url).post("/api/auth/password/reset", { token, password: "short" })
    expect(weak.status).toBe(400)
    const reset = await new Client(node.url).post("/api/auth/password/reset", { token, password: "a brand new password" })
    expect(reset.body).toEqual({ ok: true })
    expect((await member.client.get("/api/auth/me")).status).toBe(401)
    const oldLogin = await new Client(node.url).post("/api/auth/login", { email: member.registration.email, password: member.registration.password })
    expect(oldLogin.status).toBe(401)
    const fresh = new Client(node.url)
    const newLogin = await fresh.post("/api/auth/login", { email: member.registration.email, password: "a brand new password" })
    expect(newLogin.status).toBe(200)
    expect((await fresh.get("/api/auth/email")).body.verified).toBe(true)
    const replay = await new Client(node.url).post("/api/auth/password/reset", { token, password: "yet another password" })
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe("invalid_token")
  })

  it("sends at most three reset mails an hour to one address", async () => {
    const member = await registerMember(node, owner.client)
    for (let i = 0; i < 5; i++) {
      const answer = await new Client(node.url).post("/api/auth/password/reset/request", { email: member.registration.email })
      expect(answer.status).toBe(200)
    }
    await smtp.waitFor(member.registration.email, 3)
    // The fourth and fifth requests were answered Ok but sent nothing; give a stray mail time to show.
    await new Client(node.url).post("/api/auth/waitlist", { email: "probe@example.org", name: "", why: "" })
    expect(smtp.messages().filter((m) => m.to.includes(member.registration.email))).toHaveLength(3)
  })
})

describe("invites by mail", () => {
  it("mints a code, mails it, and lists the invite with a masked code only", async () => {
    const sent = await owner.client.post("/api/auth/codes/send", { email: "friend@example.org", note: "Come and see" })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({ email: "friend@example.org", note: "Come and see", sent: true, error: null, spent: false })
    const [mail] = await smtp.waitFor("friend@example.org")
    const code = mail.body.match(/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/)![0]
    expect(mail.body).toContain("Come and see")
    expect(sent.body.codeMask).toBe(`${code.slice(0, 2)}${"•".repeat(code.length - 4)}${code.slice(-2)}`)
    const list = await owner.client.get("/api/auth/codes/sent")
    expect(list.text).not.toContain(code)
    const joined = await new Client(node.url).post("/api/auth/register", person(code, { email: "friend@example.org" }))
    expect(joined.status).toBe(200)
    const after = await owner.client.get("/api/auth/codes/sent")
    expect(after.body.find((row: { id: string }) => row.id === sent.body.id).spent).toBe(true)
  })

  it("refuses a bad invite body with 400", async () => {
    const answer = await owner.client.post("/api/auth/codes/send", { email: "not an address" })
    expect(answer.status).toBe(400)
  })
})

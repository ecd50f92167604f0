import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  attempt,
  Client,
  firstPage,
  person,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type TestNode
} from "../support/node.ts"
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
    const before = await run(member.client.api.auth.emailStatus())
    expect(before).toMatchObject({
      email: member.registration.email,
      verified: false,
      pending: false,
      emailConfigured: true
    })
    // Raw: the contract reads no body here, so only a raw request can try to name another address.
    const sent = await member.client.raw("POST", "/api/auth/verify/send", { email: "attacker@example.org" })
    expect(sent.status).toBe(200)
    expect(sent.body).toMatchObject({ pending: true })
    const [mail] = await smtp.waitFor(member.registration.email)
    expect(smtp.messages().some((m) => m.to.includes("attacker@example.org"))).toBe(false)
    const token = tokenIn(mail.body, "verify")!
    expect(token).toBeDefined()
    const verify = await run(new Client(node.url).api.authPublic.verifyEmail({ payload: { token } }))
    expect(verify).toEqual({ ok: true })
    const after = await run(member.client.api.auth.emailStatus())
    expect(after).toMatchObject({ verified: true, pending: false })
    const again = await refused(new Client(node.url).api.authPublic.verifyEmail({ payload: { token } }))
    expect(again.status).toBe(400)
    expect(again.body.error).toBe("invalid_token")
  })

  it("refuses an unknown token with 400", async () => {
    const answer = await refused(new Client(node.url).api.authPublic.verifyEmail({ payload: { token: "made-up" } }))
    expect(answer.status).toBe(400)
  })
})

describe("password reset", () => {
  it("answers the same for a known and an unknown address", async () => {
    const member = await registerMember(node, owner.client)
    // Raw: the two answers must be the same bytes, not only the same decoded value.
    const known = await new Client(node.url).raw("POST", "/api/auth/password/reset/request", {
      email: member.registration.email
    })
    const unknown = await new Client(node.url).raw("POST", "/api/auth/password/reset/request", {
      email: "ghost@example.org"
    })
    expect(known.status).toBe(200)
    expect(unknown.status).toBe(200)
    expect(known.text).toBe(unknown.text)
    await smtp.waitFor(member.registration.email)
    expect(smtp.messages().some((m) => m.to.includes("ghost@example.org"))).toBe(false)
  })

  it("spends the token with the new password, drops every session, confirms the address", async () => {
    const member = await registerMember(node, owner.client)
    await run(
      new Client(node.url).api.authPublic.requestPasswordReset({ payload: { email: member.registration.email } })
    )
    const [mail] = await smtp.waitFor(member.registration.email)
    const token = tokenIn(mail!.body, "reset")!
    // A password the contract's schema refuses before it leaves the typed client: sent raw.
    const weak = await new Client(node.url).raw("POST", "/api/auth/password/reset", { token, password: "short" })
    expect(weak.status).toBe(400)
    const reset = await run(
      new Client(node.url).api.authPublic.resetPassword({ payload: { token, password: "a brand new password" } })
    )
    expect(reset).toEqual({ ok: true })
    expect((await refused(member.client.api.auth.me())).status).toBe(401)
    const oldLogin = await refused(
      new Client(node.url).api.authPublic.login({
        payload: { email: member.registration.email, password: member.registration.password }
      })
    )
    expect(oldLogin.status).toBe(401)
    const fresh = new Client(node.url)
    await run(
      fresh.api.authPublic.login({ payload: { email: member.registration.email, password: "a brand new password" } })
    )
    expect((await run(fresh.api.auth.emailStatus())).verified).toBe(true)
    const replay = await refused(
      new Client(node.url).api.authPublic.resetPassword({ payload: { token, password: "yet another password" } })
    )
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe("invalid_token")
  })

  it("sends at most three reset mails an hour to one address", async () => {
    const member = await registerMember(node, owner.client)
    for (let i = 0; i < 5; i++) {
      await run(
        new Client(node.url).api.authPublic.requestPasswordReset({ payload: { email: member.registration.email } })
      )
    }
    await smtp.waitFor(member.registration.email, 3)
    // The fourth and fifth requests were answered Ok but sent nothing; give a stray mail time to show.
    await attempt(
      new Client(node.url).api.authPublic.joinWaitlist({ payload: { email: "probe@example.org", name: "", why: "" } })
    )
    expect(smtp.messages().filter((m) => m.to.includes(member.registration.email))).toHaveLength(3)
  })
})

describe("invites by mail", () => {
  it("mints a code, mails it, and lists the invite with a masked code only", async () => {
    const sent = await run(
      owner.client.api.auth.sendInvite({ payload: { email: "friend@example.org", note: "Come and see" } })
    )
    expect(sent).toMatchObject({
      email: "friend@example.org",
      note: "Come and see",
      sent: true,
      error: null,
      spent: false
    })
    const [mail] = await smtp.waitFor("friend@example.org")
    const code = mail.body.match(/[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/)![0]
    expect(mail.body).toContain("Come and see")
    expect(sent.codeMask).toBe(`${code.slice(0, 2)}${"•".repeat(code.length - 4)}${code.slice(-2)}`)
    // The whole list as the wire carried it, fields the contract does not list included.
    const list = await owner.client.raw("GET", "/api/auth/codes/sent")
    expect(list.status).toBe(200)
    expect(list.text).not.toContain(code)
    await run(new Client(node.url).api.authPublic.register({ payload: person(code, { email: "friend@example.org" }) }))
    const after = await run(owner.client.api.auth.listInvites({ urlParams: firstPage }))
    expect(after.find((row) => row.id === sent.id)?.spent).toBe(true)
  })

  it("refuses a bad invite body with 400", async () => {
    // A body the contract's schema refuses before it leaves the typed client: sent raw.
    const answer = await owner.client.raw("POST", "/api/auth/codes/send", { email: "not an address" })
    expect(answer.status).toBe(400)
  })
})

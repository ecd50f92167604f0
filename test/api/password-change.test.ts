/**
 * POST /api/auth/password: a signed-in being changes its password by proving the current one.
 * Every other session of that being ends (its live sockets close), this one stays; a refusal
 * changes nothing.
 */
import { describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { Client, nodeWithOwner, registerMember } from "../support/node.ts"

const context = nodeWithOwner()

const login = (email: string, password: string) => new Client(context.node.url).post("/api/auth/login", { email, password })

const signInAgain = async (registration: { email: string; password: string }) => {
  const device = new Client(context.node.url)
  expect((await device.post("/api/auth/login", registration)).status).toBe(200)
  return device
}

describe("changing one's password", () => {
  it("sets the new password, keeps this session, and signs out every other one, closing its sockets", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const phone = await signInAgain(member.registration)
    const tablet = await signInAgain(member.registration)
    const phoneTab = await LiveTab.open(context.node, phone)

    const answer = await member.client.post("/api/auth/password", { currentPassword: password, newPassword: "a brand new secret" })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual({ ok: true, revoked: 2 })

    expect(await phoneTab.closed).toEqual({ code: 4001, reason: "session ended" })
    expect((await phone.get("/api/auth/me")).status).toBe(401)
    expect((await tablet.get("/api/auth/me")).status).toBe(401)
    expect((await member.client.get("/api/auth/me")).status).toBe(200)
    expect((await login(email, password)).status).toBe(401)
    expect((await login(email, "a brand new secret")).status).toBe(200)
    // Another being's sessions are not touched.
    expect((await context.owner.client.get("/api/auth/me")).status).toBe(200)
  })

  it("refuses a wrong current password with 403 wrong_password and changes nothing", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const phone = await signInAgain(member.registration)

    const answer = await member.client.post("/api/auth/password", { currentPassword: "not my password", newPassword: "a brand new secret" })
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual({ error: "wrong_password", message: "That is not your current password. Nothing was changed." })

    expect((await phone.get("/api/auth/me")).status).toBe(200)
    expect((await login(email, password)).status).toBe(200)
    expect((await login(email, "a brand new secret")).status).toBe(401)
  })

  it("refuses a page of another site (403 forbidden_origin) and a body over the JSON limit (413), changing nothing", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const body = { currentPassword: password, newPassword: "a brand new secret" }

    const crossSite = await member.client.request("POST", "/api/auth/password", body, { origin: "https://elsewhere.example" })
    expect(crossSite.status).toBe(403)
    expect(crossSite.body).toMatchObject({ error: "forbidden_origin" })

    const oversize = await member.client.post("/api/auth/password", { ...body, newPassword: "x".repeat(2 * 1024 * 1024) })
    expect(oversize.status).toBe(413)
    expect(oversize.body).toMatchObject({ error: "payload_too_large" })

    expect((await login(email, password)).status).toBe(200)
    expect((await login(email, "a brand new secret")).status).toBe(401)
  })

  it("refuses a new password that breaks the password rules with 400 and changes nothing", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const phone = await signInAgain(member.registration)

    for (const newPassword of ["short", "é".repeat(37), 12345678]) {
      const answer = await member.client.post("/api/auth/password", { currentPassword: password, newPassword })
      expect(answer.status).toBe(400)
      expect(answer.body.error).toBe("invalid_request")
    }
    const missing = await member.client.post("/api/auth/password", { newPassword: "a brand new secret" })
    expect(missing.status).toBe(400)

    expect((await phone.get("/api/auth/me")).status).toBe(200)
    expect((await login(email, password)).status).toBe(200)
  })

  it("needs a session", async () => {
    const answer = await new Client(context.node.url).post("/api/auth/password", {
      currentPassword: "correct horse battery",
      newPassword: "a brand new secret"
    })
    expect(answer.status).toBe(401)
  })

  it("lets one of two racing changes win; the other is refused and the winner's password holds", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const answers = await Promise.all(
      ["first new secret", "second new secret"].map((newPassword) =>
        member.client.post("/api/auth/password", { currentPassword: password, newPassword })
      )
    )
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403])
    const winner = answers[0].status === 200 ? "first new secret" : "second new secret"
    const loser = winner === "first new secret" ? "second new secret" : "first new secret"
    expect((await login(email, winner)).status).toBe(200)
    expect((await login(email, loser)).status).toBe(401)
    expect((await login(email, password)).status).toBe(401)
  })

  it("is rate limited with the auth class (10 a minute per address)", async () => {
    const member = await registerMember(context.node, context.owner.client)
    // The same session from an address whose budget registering did not touch.
    const elsewhere = new Client(context.node.url)
    elsewhere.cookies = new Map(member.client.cookies)
    const attempts = []
    for (let i = 0; i < 11; i++) {
      attempts.push(await elsewhere.post("/api/auth/password", { currentPassword: "a wrong guess", newPassword: "a brand new secret" }))
    }
    expect(attempts.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(403))
    expect(attempts[10].status).toBe(429)
    expect(attempts[10].body.details.class).toBe("auth")
  })
})

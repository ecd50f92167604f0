/**
 * POST /api/auth/password: a signed-in being changes its password by proving the current one.
 * Every other session of that being ends (its live sockets close), this one stays; a refusal
 * changes nothing.
 */
import { describe, expect, it } from "vitest"
import { LiveTab } from "../support/live.ts"
import { apiError, attempt, Client, nodeWithOwner, refused, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

/** Whether a fresh device signs in with this password (true), or is refused with 401 (false). */
const login = async (email: string, password: string) => {
  const answer = await attempt(new Client(context.node.url).api.authPublic.login({ payload: { email, password } }))
  if (!answer.ok) expect(answer.status).toBe(401)
  return answer.ok
}

const signInAgain = async (registration: { email: string; password: string }) => {
  const device = new Client(context.node.url)
  await run(device.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
  return device
}

const changePassword = (client: Client, currentPassword: string, newPassword: string) =>
  client.api.auth.changePassword({ payload: { currentPassword, newPassword } })

describe("changing one's password", () => {
  it("sets the new password, keeps this session, and signs out every other one, closing its sockets", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const phone = await signInAgain(member.registration)
    const tablet = await signInAgain(member.registration)
    const phoneTab = await LiveTab.open(context.node, phone)

    const answer = await run(changePassword(member.client, password, "a brand new secret"))
    expect(answer).toEqual({ ok: true, revoked: 2 })

    expect(await phoneTab.closed).toEqual({ code: 4001, reason: "session ended" })
    expect((await refused(phone.api.auth.me())).status).toBe(401)
    expect((await refused(tablet.api.auth.me())).status).toBe(401)
    await run(member.client.api.auth.me())
    expect(await login(email, password)).toBe(false)
    expect(await login(email, "a brand new secret")).toBe(true)
    // Another being's sessions are not touched.
    await run(context.owner.client.api.auth.me())
  })

  it("refuses a wrong current password with 403 wrong_password and changes nothing", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const phone = await signInAgain(member.registration)

    const answer = await refused(changePassword(member.client, "not my password", "a brand new secret"))
    expect(answer.status).toBe(403)
    expect(answer.body).toEqual({
      error: "wrong_password",
      message: "That is not your current password. Nothing was changed."
    })

    await run(phone.api.auth.me())
    expect(await login(email, password)).toBe(true)
    expect(await login(email, "a brand new secret")).toBe(false)
  })

  it("refuses a page of another site (403 forbidden_origin) and a body over the JSON limit (413), changing nothing", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const body = { currentPassword: password, newPassword: "a brand new secret" }

    // About the wire (an Origin header, a body the contract's schema refuses before it leaves): sent raw.
    const crossSite = await member.client.raw("POST", "/api/auth/password", body, {
      origin: "https://elsewhere.example"
    })
    expect(crossSite.status).toBe(403)
    expect(apiError(crossSite).error).toBe("forbidden_origin")

    const oversize = await member.client.raw("POST", "/api/auth/password", {
      ...body,
      newPassword: "x".repeat(2 * 1024 * 1024)
    })
    expect(oversize.status).toBe(413)
    expect(apiError(oversize).error).toBe("payload_too_large")

    expect(await login(email, password)).toBe(true)
    expect(await login(email, "a brand new secret")).toBe(false)
  })

  it("refuses a new password that breaks the password rules with 400 and changes nothing", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const phone = await signInAgain(member.registration)

    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    for (const newPassword of ["short", "é".repeat(37), 12345678]) {
      const answer = await member.client.raw("POST", "/api/auth/password", { currentPassword: password, newPassword })
      expect(answer.status).toBe(400)
      expect(apiError(answer).error).toBe("invalid_request")
    }
    const missing = await member.client.raw("POST", "/api/auth/password", { newPassword: "a brand new secret" })
    expect(missing.status).toBe(400)

    await run(phone.api.auth.me())
    expect(await login(email, password)).toBe(true)
  })

  it("needs a session", async () => {
    const answer = await refused(
      changePassword(new Client(context.node.url), "correct horse battery", "a brand new secret")
    )
    expect(answer.status).toBe(401)
  })

  it("lets one of two racing changes win; the other is refused and the winner's password holds", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const { email, password } = member.registration
    const answers = await Promise.all(
      ["first new secret", "second new secret"].map((newPassword) =>
        attempt(changePassword(member.client, password, newPassword))
      )
    )
    expect(answers.map((answer) => (answer.ok ? 200 : answer.status)).sort()).toEqual([200, 403])
    const winner = answers[0]!.ok ? "first new secret" : "second new secret"
    const loser = winner === "first new secret" ? "second new secret" : "first new secret"
    expect(await login(email, winner)).toBe(true)
    expect(await login(email, loser)).toBe(false)
    expect(await login(email, password)).toBe(false)
  })

  it("is rate limited with the auth class (10 a minute per address)", async () => {
    const member = await registerMember(context.node, context.owner.client)
    // The same session from an address whose budget registering did not touch.
    const elsewhere = new Client(context.node.url)
    elsewhere.copyCookiesFrom(member.client)
    const attempts = []
    for (let i = 0; i < 11; i++) {
      attempts.push(await refused(changePassword(elsewhere, "a wrong guess", "a brand new secret")))
    }
    expect(attempts.slice(0, 10).map((answer) => answer.status)).toEqual(Array(10).fill(403))
    expect(attempts[10]!.status).toBe(429)
    expect(attempts[10]!.body.details).toMatchObject({ class: "auth" })
  })
})

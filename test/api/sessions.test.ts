import { describe, expect, it } from "vitest"
import { Client, nodeWithOwner, refused, registerMember, run } from "../support/node.ts"

const context = nodeWithOwner()

const signInAgain = async (registration: { email: string; password: string }) => {
  const device = new Client(context.node.url)
  await run(device.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
  return device
}

describe("sessions", () => {
  it("lists the being's own sessions, marks the current one, shows no token", async () => {
    const member = await registerMember(context.node, context.owner.client)
    await signInAgain(member.registration)
    const list = await run(member.client.api.auth.listSessions())
    expect(list).toHaveLength(2)
    expect(list.filter((row) => row.current)).toHaveLength(1)
    const days = (Date.parse(list[0]!.expiresAt) - Date.parse(list[0]!.createdAt)) / 86_400_000
    expect(days).toBeCloseTo(30, 3)
    // What the wire carries, read raw: the typed client's decoding would drop any field the contract does not list.
    const wire = await member.client.raw("GET", "/api/auth/sessions")
    expect(wire.status).toBe(200)
    for (const row of wire.body as ReadonlyArray<object>)
      expect(Object.keys(row).sort()).toEqual(["createdAt", "current", "expiresAt", "id"])
    expect(wire.text).not.toContain(member.client.cookie("svc_session")!.split(".")[0])
  })

  it("revokes one session by id, only one's own (404 for another being's)", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const laptop = await signInAgain(member.registration)
    const list = await run(member.client.api.auth.listSessions())
    const other = list.find((row) => !row.current)!
    const ownersTry = await refused(context.owner.client.api.auth.revokeSession({ path: { id: other.id } }))
    expect(ownersTry.status).toBe(404)
    await run(laptop.api.auth.me())
    const revoke = await run(member.client.api.auth.revokeSession({ path: { id: other.id } }))
    expect(revoke).toEqual({ ok: true, revoked: 1 })
    expect((await refused(laptop.api.auth.me())).status).toBe(401)
  })

  it("DELETE /api/auth/sessions revokes every other session and keeps this one", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const phone = await signInAgain(member.registration)
    const tablet = await signInAgain(member.registration)
    const answer = await run(member.client.api.auth.revokeOtherSessions())
    expect(answer).toEqual({ ok: true, revoked: 2 })
    expect((await refused(phone.api.auth.me())).status).toBe(401)
    expect((await refused(tablet.api.auth.me())).status).toBe(401)
    await run(member.client.api.auth.me())
  })

  it("POST /api/auth/logout/all signs out every device, this one too", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const phone = await signInAgain(member.registration)
    const answer = await run(member.client.api.auth.logoutAll())
    expect(answer).toEqual({ ok: true, revoked: 2 })
    expect((await refused(phone.api.auth.me())).status).toBe(401)
    expect((await refused(member.client.api.auth.me())).status).toBe(401)
    await run(context.owner.client.api.auth.me())
  })
})

describe("suspension (owner only)", () => {
  it("suspends: every session drops and the password stops working; unsuspend restores it", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const byMember = await refused(member.client.api.auth.suspend({ path: { id: context.owner.being.id } }))
    expect(byMember.status).toBe(403)
    const suspended = await run(context.owner.client.api.auth.suspend({ path: { id: member.being.id } }))
    expect(suspended.suspended).toBe(true)
    expect((await refused(member.client.api.auth.me())).status).toBe(401)
    const login = await refused(
      new Client(context.node.url).api.authPublic.login({
        payload: { email: member.registration.email, password: member.registration.password }
      })
    )
    expect(login.status).toBe(401)
    const restored = await run(context.owner.client.api.auth.unsuspend({ path: { id: member.being.id } }))
    expect(restored.suspended).toBe(false)
    await signInAgain(member.registration)
  })

  it("refuses to suspend the owner and answers 404 for an unknown id", async () => {
    const self = await refused(context.owner.client.api.auth.suspend({ path: { id: context.owner.being.id } }))
    expect(self.status).toBe(400)
    expect(self.body.error).toBe("cannot_suspend_owner")
    expect((await refused(context.owner.client.api.auth.suspend({ path: { id: "nobody" } }))).status).toBe(404)
  })

  it("lists accounts for the owner only", async () => {
    const member = await registerMember(context.node, context.owner.client)
    expect((await refused(member.client.api.auth.listBeings())).status).toBe(403)
    const list = await run(context.owner.client.api.auth.listBeings())
    expect(list.some((being) => being.id === member.being.id)).toBe(true)
  })
})

describe("GET /api/auth/me and a cookie verified before", () => {
  it("refuses the same token under another signature, and a session ended after its cookie was verified (401)", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const value = member.client.cookie("svc_session")!
    expect(await run(member.client.api.auth.me())).toEqual({ being: member.being })
    const [token, signature] = [value.slice(0, value.lastIndexOf(".")), value.slice(value.lastIndexOf(".") + 1)]
    const visitor = new Client(context.node.url)
    const tampered = `${token}.${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`
    for (const cookie of [`${token}.`, tampered, `${token}x.${signature}`, token]) {
      const answer = await visitor.raw("GET", "/api/auth/me", undefined, { cookie: `svc_session=${cookie}` })
      expect(answer.status, cookie).toBe(401)
    }
    const same = await visitor.raw("GET", "/api/auth/me", undefined, { cookie: `svc_session=${value}` })
    expect(same).toMatchObject({ status: 200, body: { being: member.being } })
    await run(member.client.api.auth.logout())
    const after = await visitor.raw("GET", "/api/auth/me", undefined, { cookie: `svc_session=${value}` })
    expect(after.status).toBe(401)
  })
})

describe("GET /api/auth/session", () => {
  it("answers 200 with who is signed in, or with no one: a visitor, a forged cookie, a signed-out session", async () => {
    const visitor = new Client(context.node.url)
    expect(await visitor.raw("GET", "/api/auth/session")).toMatchObject({ status: 200, body: { being: null } })
    const forged = await visitor.raw("GET", "/api/auth/session", undefined, { cookie: "svc_session=made-up.signature" })
    expect(forged).toMatchObject({ status: 200, body: { being: null } })

    const member = await registerMember(context.node, context.owner.client)
    expect(await run(member.client.api.authPublic.session())).toEqual({ being: member.being })
    await run(member.client.api.auth.logout())
    expect(await run(member.client.api.authPublic.session())).toEqual({ being: null })
    // The routes that need a session still refuse without one.
    expect((await visitor.raw("GET", "/api/auth/me")).status).toBe(401)
  })
})

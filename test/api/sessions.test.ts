import { describe, expect, it } from "vitest"
import {Client, nodeWithOwner, registerMember } from "../support/node.ts"

const context = nodeWithOwner()

const signInAgain = async (registration: { email: string; password: string }) => {
  const device = new Client(context.node.url)
  const answer = await device.post("/api/auth/login", { email: registration.email, password: registration.password })
  expect(answer.status).toBe(200)
  return device
}

describe("sessions", () => {
  it("lists the being's own sessions, marks the current one, shows no token", async () => {
    const member = await registerMember(context.node, context.owner.client)
    await signInAgain(member.registration)
    const list = await member.client.get("/api/auth/sessions")
    expect(list.status).toBe(200)
    expect(list.body).toHaveLength(2)
    expect(list.body.filter((row: { current: boolean }) => row.current)).toHaveLength(1)
    for (const row of list.body) expect(Object.keys(row).sort()).toEqual(["createdAt", "current", "expiresAt", "id"])
    const days = (Date.parse(list.body[0].expiresAt) - Date.parse(list.body[0].createdAt)) / 86_400_000
    expect(days).toBeCloseTo(30, 3)
    expect(list.text).not.toContain(member.client.cookies.get("svc_session")!.split(".")[0])
  })

  it("revokes one session by id, only one's own (404 for another being's)", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const laptop = await signInAgain(member.registration)
    const list = await member.client.get("/api/auth/sessions")
    const other = list.body.find((row: { current: boolean }) => !row.current)
    const ownersTry = await context.owner.client.del(`/api/auth/sessions/${other.id}`)
    expect(ownersTry.status).toBe(404)
    expect((await laptop.get("/api/auth/me")).status).toBe(200)
    const revoke = await member.client.del(`/api/auth/sessions/${other.id}`)
    expect(revoke.body).toEqual({ ok: true, revoked: 1 })
    expect((await laptop.get("/api/auth/me")).status).toBe(401)
  })

  it("DELETE /api/auth/sessions revokes every other session and keeps this one", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const phone = await signInAgain(member.registration)
    const tablet = await signInAgain(member.registration)
    const answer = await member.client.del("/api/auth/sessions")
    expect(answer.body).toEqual({ ok: true, revoked: 2 })
    expect((await phone.get("/api/auth/me")).status).toBe(401)
    expect((await tablet.get("/api/auth/me")).status).toBe(401)
    expect((await member.client.get("/api/auth/me")).status).toBe(200)
  })

  it("POST /api/auth/logout/all signs out every device, this one too", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const phone = await signInAgain(member.registration)
    const answer = await member.client.post("/api/auth/logout/all")
    expect(answer.body).toEqual({ ok: true, revoked: 2 })
    expect((await phone.get("/api/auth/me")).status).toBe(401)
    expect((await member.client.get("/api/auth/me")).status).toBe(401)
    expect((await context.owner.client.get("/api/auth/me")).status).toBe(200)
  })
})

describe("suspension (owner only)", () => {
  it("suspends: every session drops and the password stops working; unsuspend restores it", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const byMember = await member.client.post(`/api/auth/beings/${context.owner.being.id}/suspend`)
    expect(byMember.status).toBe(403)
    const suspended = await context.owner.client.post(`/api/auth/beings/${member.being.id}/suspend`)
    expect(suspended.status).toBe(200)
    expect(suspended.body.suspended).toBe(true)
    expect((await member.client.get("/api/auth/me")).status).toBe(401)
    const login = await new Client(context.node.url).post("/api/auth/login", {
      email: member.registration.email,
      password: member.registration.password
    })
    expect(login.status).toBe(401)
    const restored = await context.owner.client.post(`/api/auth/beings/${member.being.id}/unsuspend`)
    expect(restored.body.suspended).toBe(false)
    await signInAgain(member.registration)
  })

  it("refuses to suspend the owner and answers 404 for an unknown id", async () => {
    const self = await context.owner.client.post(`/api/auth/beings/${context.owner.being.id}/suspend`)
    expect(self.status).toBe(400)
    expect(self.body.error).toBe("cannot_suspend_owner")
    expect((await context.owner.client.post("/api/auth/beings/nobody/suspend")).status).toBe(404)
  })

  it("lists accounts for the owner only", async () => {
    const member = await registerMember(context.node, context.owner.client)
    expect((await member.client.get("/api/auth/beings")).status).toBe(403)
    const list = await context.owner.client.get("/api/auth/beings")
    expect(list.status).toBe(200)
    expect(list.body.some((being: { id: string }) => being.id === member.being.id)).toBe(true)
  })
})

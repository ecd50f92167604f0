import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, person, registerOwner, startNode, type TestNode } from "../support/node.ts"

let node: TestNode
let owner: Client

const mintCode = async () => (await owner.post("/api/auth/codes", { count: 1, note: "" })).body[0].code as string

beforeAll(async () => {
  node = await startNode()
})
afterAll(() => node.close())

describe("POST /api/auth/register", () => {
  it("refuses without a valid code, and changes nothing", async () => {
    const stranger = new Client(node.url)
    const answer = await stranger.post("/api/auth/register", person("NOPE-NOPE-NOPE"))
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ error: "invalid_access_code" })
    expect(typeof answer.body.message).toBe("string")
    expect(stranger.cookies.size).toBe(0)
  })

  it("refuses a bad body with 400 and the schema issue in details", async () => {
    const answer = await new Client(node.url).post("/api/auth/register", { ...person(node.ownerCode), email: "not-an-email" })
    expect(answer.status).toBe(400)
    expect(answer.body.error).toBe("invalid_request")
    expect(JSON.stringify(answer.body.details)).toContain("email")
    const short = await new Client(node.url).post("/api/auth/register", { ...person(node.ownerCode), password: "short" })
    expect(short.status).toBe(400)
    const notJson = await new Client(node.url).request("POST", "/api/auth/register", "{not json")
    expect(notJson.status).toBe(400)
    expect(notJson.body.error).toBe("invalid_request")
    const extraBeing = await new Client(node.url).post("/api/auth/register", { handle: "x" })
    expect(extraBeing.status).toBe(400)
  })

  it("makes the first registrant with the bootstrap code the owner, with a session", async () => {
    const registered = await registerOwner(node)
    owner = registered.client
    expect(registered.being.isOwner).toBe(true)
    const me = await owner.get("/api/auth/me")
    expect(me.status).toBe(200)
    expect(me.body.being).toMatchObject({ id: registered.being.id, isOwner: true, handle: registered.registration.handle })
    expect(me.body.being).not.toHaveProperty("passwordHash")
  })

  it("sets the session cookie signed, httpOnly, SameSite=Lax, not Secure over http, for 30 days", async () => {
    const response = await fetch(`${node.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "10.200.0.1" },
      body: JSON.stringify(person(await mintCode()))
    })
    expect(response.status).toBe(200)
    const setCookie = response.headers.getSetCookie().join("\n")
    expect(setCookie).toMatch(/svc_session=[^;.]+\.[^;]+;/)
    expect(setCookie).toMatch(/HttpOnly/i)
    expect(setCookie).toMatch(/SameSite=Lax/i)
    expect(setCookie).not.toMatch(/Secure/i)
    expect(setCookie).toMatch(/Max-Age=2592000/i)
  })

  it("refuses a tampered cookie", async () => {
    const cookie = owner.cookies.get("svc_session")!
    const forged = new Client(node.url)
    forged.cookies.set("svc_session", `${cookie.split(".")[0]}.AAAA`)
    expect((await forged.get("/api/auth/me")).status).toBe(401)
    const unsigned = new Client(node.url)
    unsigned.cookies.set("svc_session", cookie.split(".")[0])
    expect((await unsigned.get("/api/auth/me")).status).toBe(401)
  })

  it("spends a code once: a second registration with it is refused", async () => {
    const code = await mintCode()
    const first = await new Client(node.url).post("/api/auth/register", person(code))
    expect(first.status).toBe(200)
    expect(first.body.being.isOwner).toBe(false)
    const second = await new Client(node.url).post("/api/auth/register", person(code))
    expect(second.status).toBe(403)
    expect(second.body.error).toBe("invalid_access_code")
  })

  it("refuses the spent bootstrap code: there is one owner", async () => {
    const again = await new Client(node.url).post("/api/auth/register", person(node.ownerCode))
    expect(again.status).toBe(403)
  })

  it("refuses a taken handle or email with 409 and does not spend the code", async () => {
    const first = person(await mintCode())
    expect((await new Client(node.url).post("/api/auth/register", first)).status).toBe(200)
    const code = await mintCode()
    const sameHandle = await new Client(node.url).post("/api/auth/register", person(code, { handle: first.handle }))
    expect(sameHandle.status).toBe(409)
    expect(sameHandle.body.error).toBe("handle_taken")
    const sameEmail = await new Client(node.url).post("/api/auth/register", person(code, { email: first.email.toUpperCase() }))
    expect(sameEmail.status).toBe(409)
    expect(sameEmail.body.error).toBe("email_taken")
    const unused = await owner.get("/api/auth/codes/unused")
    expect(unused.body.map((row: { code: string }) => row.code)).toContain(code)
  })

  it("login destroys the session the request already carried and issues a new one", async () => {
    const member = new Client(node.url)
    const registration = person(await mintCode())
    await member.post("/api/auth/register", registration)
    const oldCookie = member.cookies.get("svc_session")!
    const login = await member.post("/api/auth/login", { email: registration.email, password: registration.password })
    expect(login.status).toBe(200)
    expect(member.cookies.get("svc_session")).not.toBe(oldCookie)
    const stale = new Client(node.url)
    stale.cookies.set("svc_session", oldCookie)
    expect((await stale.get("/api/auth/me")).status).toBe(401)
    expect((await member.get("/api/auth/me")).status).toBe(200)
  })
})

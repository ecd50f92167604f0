import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  apiError,
  Client,
  firstPage,
  person,
  refused,
  registerOwner,
  run,
  startNode,
  type TestNode
} from "../support/node.ts"

let node: TestNode
let owner: Client

const mintCode = async () => (await run(owner.api.auth.mintCodes({ payload: { count: 1, note: "" } })))[0]!.code

beforeAll(async () => {
  node = await startNode()
})
afterAll(() => node.close())

describe("POST /api/auth/register", () => {
  it("refuses without a valid code, and changes nothing", async () => {
    const stranger = new Client(node.url)
    const answer = await refused(stranger.api.authPublic.register({ payload: person("NOPE-NOPE-NOPE") }))
    expect(answer.status).toBe(403)
    expect(answer.body).toMatchObject({ error: "invalid_access_code" })
    expect(typeof answer.body.message).toBe("string")
    expect(stranger.cookieCount).toBe(0)
  })

  it("refuses a bad body with 400 and the schema issue in details", async () => {
    // Bodies the contract's schema refuses before they leave the typed client: sent raw.
    const answer = await new Client(node.url).raw("POST", "/api/auth/register", {
      ...person(node.ownerCode),
      email: "not-an-email"
    })
    expect(answer.status).toBe(400)
    expect(apiError(answer).error).toBe("invalid_request")
    expect(JSON.stringify(apiError(answer).details)).toContain("email")
    const short = await new Client(node.url).raw("POST", "/api/auth/register", {
      ...person(node.ownerCode),
      password: "short"
    })
    expect(short.status).toBe(400)
    const notJson = await new Client(node.url).raw("POST", "/api/auth/register", "{not json")
    expect(notJson.status).toBe(400)
    expect(apiError(notJson).error).toBe("invalid_request")
    const extraBeing = await new Client(node.url).raw("POST", "/api/auth/register", { handle: "x" })
    expect(extraBeing.status).toBe(400)
  })

  it("makes the first registrant with the bootstrap code the owner, with a session", async () => {
    const registered = await registerOwner(node)
    owner = registered.client
    expect(registered.being.isOwner).toBe(true)
    const me = await owner.raw("GET", "/api/auth/me")
    expect(me.status).toBe(200)
    // Read raw: the typed client's decoding would drop a field the contract does not list.
    expect(me.body).toMatchObject({
      being: { id: registered.being.id, isOwner: true, handle: registered.registration.handle }
    })
    expect(me.text).not.toContain("passwordHash")
    expect((await run(owner.api.auth.me())).being).toMatchObject({ id: registered.being.id, isOwner: true })
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
    const cookie = owner.cookie("svc_session")!
    const forged = new Client(node.url)
    forged.setCookie("svc_session", `${cookie.split(".")[0]}.AAAA`)
    expect((await refused(forged.api.auth.me())).status).toBe(401)
    const unsigned = new Client(node.url)
    unsigned.setCookie("svc_session", cookie.split(".")[0]!)
    expect((await refused(unsigned.api.auth.me())).status).toBe(401)
  })

  it("spends a code once: a second registration with it is refused", async () => {
    const code = await mintCode()
    const first = await run(new Client(node.url).api.authPublic.register({ payload: person(code) }))
    expect(first.being.isOwner).toBe(false)
    const second = await refused(new Client(node.url).api.authPublic.register({ payload: person(code) }))
    expect(second.status).toBe(403)
    expect(second.body.error).toBe("invalid_access_code")
  })

  it("refuses the spent bootstrap code: there is one owner", async () => {
    const again = await refused(new Client(node.url).api.authPublic.register({ payload: person(node.ownerCode) }))
    expect(again.status).toBe(403)
  })

  it("refuses a taken handle or email with 409 and does not spend the code", async () => {
    const first = person(await mintCode())
    await run(new Client(node.url).api.authPublic.register({ payload: first }))
    const code = await mintCode()
    const sameHandle = await refused(
      new Client(node.url).api.authPublic.register({ payload: person(code, { handle: first.handle }) })
    )
    expect(sameHandle.status).toBe(409)
    expect(sameHandle.body.error).toBe("handle_taken")
    const sameEmail = await refused(
      new Client(node.url).api.authPublic.register({ payload: person(code, { email: first.email.toUpperCase() }) })
    )
    expect(sameEmail.status).toBe(409)
    expect(sameEmail.body.error).toBe("email_taken")
    const unused = await run(owner.api.auth.listUnusedCodes({ urlParams: firstPage }))
    expect(unused.map((row) => row.code)).toContain(code)
  })

  it("login destroys the session the request already carried and issues a new one", async () => {
    const member = new Client(node.url)
    const registration = person(await mintCode())
    await run(member.api.authPublic.register({ payload: registration }))
    const oldCookie = member.cookie("svc_session")!
    await run(member.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
    expect(member.cookie("svc_session")).not.toBe(oldCookie)
    const stale = new Client(node.url)
    stale.setCookie("svc_session", oldCookie)
    expect((await refused(stale.api.auth.me())).status).toBe(401)
    await run(member.api.auth.me())
  })
})

/**
 * Signed-in requests are answered from an in-process cache of sessions (extensions/accounts/session-cache.ts).
 * Each test first signs in and asks /api/auth/me (so the session is cached), then changes the
 * session or its being through the node and asks again: the answer must show the change at once.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AgentInput } from "../../extensions/agents/contract/agent.ts"
import { SESSION_COOKIE } from "../../extensions/accounts/contract/session.ts"
import { Sessions } from "../../extensions/accounts/sessions.ts"
import { digest, signCookie } from "../../extensions/accounts/tokens.ts"
import { movableClock } from "../support/clock.ts"
import { inNode } from "../support/live.ts"
import {
  Client,
  nodeWithOwner,
  refused,
  registerMember,
  registerOwner,
  run,
  startNode,
  type TestNode
} from "../support/node.ts"

const context = nodeWithOwner()

const signInAgain = async (registration: { email: string; password: string }) => {
  const device = new Client(context.node.url)
  await run(device.api.authPublic.login({ payload: { email: registration.email, password: registration.password } }))
  await run(device.api.auth.me())
  return device
}

/** A second client holding the same cookie: it keeps it when the first is told to drop it. */
const stolen = (from: Client) => {
  const copy = new Client(context.node.url)
  copy.copyCookiesFrom(from)
  return copy
}

const status = async (client: Client) => (await refused(client.api.auth.me())).status

/** A mailed link's token, put in the database as the mailer would have sent it. */
const mailToken = (beingId: string, email: string, purpose: "verify" | "reset") => {
  const token = `${purpose}-token-${beingId}`
  return inNode(
    context.node,
    Effect.flatMap(
      SqlClient.SqlClient,
      (sql) =>
        sql`INSERT INTO mail_tokens (token_hash, being_id, purpose, email, created_at, expires_at)
        VALUES (${digest(token)}, ${beingId}, ${purpose}, ${email}, ${new Date().toISOString()},
          ${new Date(Date.now() + 3_600_000).toISOString()})`
    )
  ).then(() => token)
}

describe("a cached session follows every change at once", () => {
  it("logout: the same cookie is refused right after", async () => {
    const member = await registerMember(context.node, context.owner.client)
    await run(member.client.api.auth.me())
    const copy = stolen(member.client)
    await run(member.client.api.auth.logout())
    expect(await status(copy)).toBe(401)
  })

  it("revoking one session, the others, or all: each revoked device is refused right after", async () => {
    const member = await registerMember(context.node, context.owner.client)
    await run(member.client.api.auth.me())
    const laptop = await signInAgain(member.registration)
    const phone = await signInAgain(member.registration)
    const laptopSession = (await run(laptop.api.auth.listSessions())).find((row) => row.current)!.id
    await run(member.client.api.auth.revokeSession({ path: { id: laptopSession } }))
    expect(await status(laptop)).toBe(401)
    await run(phone.api.auth.me())
    await run(member.client.api.auth.revokeOtherSessions())
    expect(await status(phone)).toBe(401)
    const copy = stolen(member.client)
    await run(member.client.api.auth.logoutAll())
    expect(await status(copy)).toBe(401)
  })

  it("a password reset signs every device out right after", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const laptop = await signInAgain(member.registration)
    const token = await mailToken(member.being.id, member.registration.email, "reset")
    await run(
      new Client(context.node.url).api.authPublic.resetPassword({
        payload: { token, password: "another fine password" }
      })
    )
    expect(await status(laptop)).toBe(401)
  })

  it("suspension: the suspended being's devices are refused right after", async () => {
    const member = await registerMember(context.node, context.owner.client)
    const laptop = await signInAgain(member.registration)
    await run(context.owner.client.api.auth.suspend({ path: { id: member.being.id } }))
    expect(await status(laptop)).toBe(401)
  })

  it("a confirmed address shows on /me right after", async () => {
    const member = await registerMember(context.node, context.owner.client)
    expect((await run(member.client.api.auth.me())).being.emailVerified).toBe(false)
    const token = await mailToken(member.being.id, member.registration.email, "verify")
    await run(new Client(context.node.url).api.authPublic.verifyEmail({ payload: { token } }))
    expect((await run(member.client.api.auth.me())).being.emailVerified).toBe(true)
  })

  it("a being renamed shows its new name, and a deleted being is refused, right after", async () => {
    // Only agents' beings are renamed or deleted today, and they never sign in; one is given an
    // address (the contract's Being has one) and a session by hand, before anything is cached,
    // so the agents' repository's writes to `beings` are covered too.
    const agent = await run(
      context.owner.client.api.studioAgents.createAgent({
        payload: Schema.decodeUnknownSync(AgentInput)({ name: "Scout", role: "researcher", skills: ["files.search"] })
      })
    )
    const cookie = await inNode(
      context.node,
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE beings SET email = ${`${agent.beingId}@agents.example.org`} WHERE id = ${agent.beingId}`
        const sessions = yield* Sessions
        return signCookie(yield* sessions.open(agent.beingId), sessions.cookieSecret)
      })
    )
    const asAgent = new Client(context.node.url)
    asAgent.setCookie(SESSION_COOKIE, cookie)
    expect((await run(asAgent.api.auth.me())).being.displayName).toBe("Scout")
    await run(
      context.owner.client.api.studioAgents.editAgent({ path: { id: agent.id }, payload: { name: "Pathfinder" } })
    )
    expect((await run(asAgent.api.auth.me())).being.displayName).toBe("Pathfinder")
    await run(context.owner.client.api.studioAgents.deleteAgent({ path: { id: agent.id } }))
    expect(await status(asAgent)).toBe(401)
  })
})

describe("a cached session expires on time", () => {
  let node: TestNode
  const time = movableClock()
  beforeAll(async () => {
    node = await startNode({}, { clock: time.clock })
  })
  afterAll(() => node.close())

  it("is refused once its 30 days are over, though nothing deleted it", async () => {
    const owner = await registerOwner(node)
    await run(owner.client.api.auth.me())
    time.advance(31 * 24 * 60 * 60 * 1000)
    expect((await refused(owner.client.api.auth.me())).status).toBe(401)
  })
})

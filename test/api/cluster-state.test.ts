/**
 * Two node processes over one database file, as two runners of a cluster share one database:
 * what must hold for the cluster as a whole holds across them. Rate limits count in the database
 * (RATE_LIMIT_STORE=database), so ten wrong logins split over both spend the one budget of ten, and
 * requests split over both spend one global budget (each process's count written behind);
 * an OAuth consent started on one process is finished by the provider's redirect to the other,
 * once. Both processes share one PUBLIC_URL, as runners behind one address do.
 */
import { writeFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startChildNode, type ChildNode } from "../support/child-node.ts"
import { freePort } from "../support/free-port.ts"
import { clientId, clientSecret, type FakeGoogle, startGoogle } from "../support/google.ts"
import { Client, person, run } from "../support/node.ts"
import { expectLoginGuessesShared, wellInsideOneWindow } from "../support/processes.ts"

const GLOBAL_BUDGET = 60
let google: FakeGoogle
let first: ChildNode
let second: ChildNode

beforeAll(async () => {
  google = await startGoogle()
  const port = await freePort()
  const env = {
    RATE_LIMIT_STORE: "database",
    // A small global budget, so a test spends it quickly; the other tests make a few requests an address.
    RATE_LIMIT_PER_MINUTE: String(GLOBAL_BUDGET),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    MAIL_A_AUTH_URL: google.settings.mailAAuthUrl,
    MAIL_A_TOKEN_URL: google.settings.mailATokenUrl,
    MAIL_A_API_URL: google.settings.mailAApiUrl,
    MAIL_A_CLIENT_ID: clientId,
    MAIL_A_CLIENT_SECRET: clientSecret,
    ENCRYPTION_KEY: "a long passphrase for the tests"
  }
  // One after the other: the first creates the database and runs the migrations.
  first = await startChildNode({ env, port })
  second = await startChildNode({ env, dataDir: first.dataDir, ownerCode: first.ownerCode })
}, 120_000)
afterAll(async () => {
  if (process.env.CLUSTER_STATE_LOGS !== undefined)
    for (const [index, child] of [first, second].entries())
      if (child !== undefined) writeFileSync(`${process.env.CLUSTER_STATE_LOGS}-${index}.log`, child.output())
  await second?.close()
  await first?.close()
  await google?.close()
})

/** One navigation as the person's browser makes it: their cookies, redirects not followed. */
const navigate = async (client: Client, url: string) => {
  const response = await fetch(url, {
    redirect: "manual",
    headers: { ...client.headers, cookie: client.cookieHeader() }
  })
  return { status: response.status, location: response.headers.get("location"), text: await response.text() }
}

/** The same path and query on another process. */
const on = (node: ChildNode, url: string) => {
  const parsed = new URL(url)
  return `${node.url}${parsed.pathname}${parsed.search}`
}

describe("state that holds across processes", () => {
  it("counts login guesses from one address across both processes: the 11th is 429 on either", async () => {
    await expectLoginGuessesShared(first, second, "10.7.7.1", "10.7.7.2")
  })
  it("counts requests from one address against one global budget across both processes, each writing its count behind", async () => {
    await wellInsideOneWindow()
    const headers = { "x-forwarded-for": "10.7.7.9" }
    const one = new Client(first.url, headers)
    const two = new Client(second.url, headers)
    const statuses = async (client: Client, count: number) => {
      const answers: Array<number> = []
      for (let i = 0; i < count; i++) answers.push((await client.raw("GET", "/api/auth/me")).status)
      return answers
    }
    // Written behind every quarter second: a second is four writes.
    const written = () => new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await statuses(one, 40)).toEqual(Array(40).fill(401))
    await written()
    expect(await statuses(two, GLOBAL_BUDGET - 40)).toEqual(Array(GLOBAL_BUDGET - 40).fill(401))
    await written()
    // The second process's write answered the cluster's count, the first's 40 with its own 20: the budget is spent.
    const refused = await two.raw("GET", "/api/auth/me")
    expect(refused.status).toBe(429)
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0)
    // The first process learns the cluster's count at its next write: past it, it refuses too.
    await statuses(one, 1)
    await written()
    expect(await statuses(one, 1)).toEqual([429])
    // Another address has its whole budget.
    expect((await new Client(second.url, { "x-forwarded-for": "10.7.7.10" }).raw("GET", "/api/auth/me")).status).toBe(
      401
    )
  })

  it("accepts an OAuth state made on one process once, on the other, and refuses it again on either", async () => {
    const owner = new Client(first.url)
    await run(owner.api.authPublic.register({ payload: person(first.ownerCode) }))
    const start = await navigate(owner, `${first.url}/api/connections/mail_a/auth`)
    expect(start.status, start.text).toBe(302)
    const screen = await navigate(owner, start.location!)
    expect(screen.status).toBe(302)
    const callback = await navigate(owner, on(second, screen.location!))
    expect(callback.status, callback.text).toBe(302)
    // The second process exchanged the code with the verifier the first one made (the token endpoint checks PKCE).
    expect(google.tokenCalls.at(-1)).toMatchObject({ grant: "authorization_code", form: { client_id: clientId } })
    expect(await run(owner.api.connections.list())).toEqual([
      expect.objectContaining({ provider: "mail_a", status: "connected" })
    ])
    for (const node of [first, second]) {
      const replay = await navigate(owner, on(node, screen.location!))
      expect(replay.status).toBe(400)
      expect(replay.text).toContain("invalid_state")
    }
  })
})

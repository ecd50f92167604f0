/** Helpers of the tests that run a node as several processes (child nodes sharing one database). */
import { expect } from "vitest"
import { startChildNode, type ChildNode } from "./child-node.ts"
import { freePort } from "./free-port.ts"
import { Client, person, run, type TestNode } from "./node.ts"
import { startPostgres, type TestPostgres } from "./postgres.ts"

/**
 * Two node processes on one throwaway PostgreSQL, as the processes of a cluster: each a socket
 * runner at its own CLUSTER_RUNNER_ADDRESS (two SingleRunners over one database fight over the
 * shards), the first started alone so it runs the migrations, the owner registered through it.
 */
export interface TwoProcesses {
  readonly postgres: TestPostgres
  readonly databaseUrl: string
  readonly first: ChildNode
  readonly second: ChildNode
  /** The owner's browser, pointed at the first process. */
  readonly owner: Client
  readonly close: () => Promise<void>
}

export const startTwoProcesses = async (env: Record<string, string> = {}): Promise<TwoProcesses> => {
  const postgres = await startPostgres()
  const databaseUrl = await postgres.createDatabase()
  const runnerAt = async () => ({
    ...env,
    DATABASE_URL: databaseUrl,
    CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}`
  })
  const first = await startChildNode({ env: await runnerAt() })
  const second = await startChildNode({ env: await runnerAt(), ownerCode: first.ownerCode })
  const owner = new Client(first.url)
  await run(owner.api.authPublic.register({ payload: person(first.ownerCode) }))
  return {
    postgres,
    databaseUrl,
    first,
    second,
    owner,
    close: async () => {
      await second.close()
      await first.close()
      postgres.stop()
    }
  }
}

/** The live channel of a process: LiveTab needs only its URL. */
export const asNode = (child: ChildNode) => ({ url: child.url }) as TestNode

/** The same person's browser (its cookies and address), pointed at another process. */
export const sameBrowserOn = (child: ChildNode, client: Client) => {
  const other = new Client(child.url, { "x-forwarded-for": client.headers["x-forwarded-for"]! })
  other.copyCookiesFrom(client)
  return other
}

const badLogin = { email: "a@b.cd", password: "x" }

/**
 * Waits for the next minute when less than 15 s of this one are left: the database store counts in
 * fixed one-minute windows (host/http/database-rate-store.ts), and hits straddling a minute's turn
 * would fall in two of them.
 */
export const wellInsideOneWindow = async () => {
  const left = 60_000 - (Date.now() % 60_000)
  if (left < 15_000) await new Promise((resolve) => setTimeout(resolve, left + 250))
}

/**
 * Ten wrong logins from `address`, split over both processes, spend the one budget of ten: the
 * 11th is 429 on either, with a Retry-After; the next address still has its whole budget.
 */
export const expectLoginGuessesShared = async (
  first: ChildNode,
  second: ChildNode,
  address: string,
  otherAddress: string
) => {
  await wellInsideOneWindow()
  const headers = { "x-forwarded-for": address }
  const one = new Client(first.url, headers)
  const two = new Client(second.url, headers)
  const statuses: Array<number> = []
  for (let i = 0; i < 10; i++)
    statuses.push((await (i % 2 === 0 ? one : two).raw("POST", "/api/auth/login", badLogin)).status)
  expect(statuses).toEqual(Array(10).fill(401))
  for (const client of [one, two]) {
    const answer = await client.raw("POST", "/api/auth/login", badLogin)
    expect(answer.status).toBe(429)
    expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0)
  }
  expect(
    (await new Client(second.url, { "x-forwarded-for": otherAddress }).raw("POST", "/api/auth/login", badLogin)).status
  ).toBe(401)
}

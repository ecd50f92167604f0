/**
 * Two node processes on one throwaway PostgreSQL, as the processes of a cluster: each a socket
 * runner at its own CLUSTER_RUNNER_ADDRESS (two SingleRunners over one database fight over the
 * shards), the first started alone so it runs the migrations, the owner registered through it.
 */
import { startChildNode, type ChildNode } from "./child-node.ts"
import { freePort } from "./free-port.ts"
import { Client, person, run, type TestNode } from "./node.ts"
import { startPostgres, type TestPostgres } from "./postgres.ts"

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
  const runnerAt = async () => ({ ...env, DATABASE_URL: databaseUrl, CLUSTER_RUNNER_ADDRESS: `127.0.0.1:${await freePort()}` })
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

/** The same person's browser, pointed at another process. */
export const sameBrowserOn = (child: ChildNode, client: Client) => {
  const other = new Client(child.url, { "x-forwarded-for": client.headers["x-forwarded-for"]! })
  other.copyCookiesFrom(client)
  return other
}

/** Asks until `check` holds of the answer, or the deadline passes: answers the last answer. */
export const askUntil = async <A>(ask: () => Promise<A>, check: (answer: A) => boolean, ms = 15_000): Promise<A> => {
  const deadline = Date.now() + ms
  for (;;) {
    const answer = await ask()
    if (check(answer) || Date.now() > deadline) return answer
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

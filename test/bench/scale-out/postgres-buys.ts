/**
 * A buy on PostgreSQL beside SQLite (issue 16): two node processes (host/bundled-start.ts, same code),
 * one on a throwaway PostgreSQL, one on its SQLite file. On each, first and off the clock: the
 * owner, 20 buyers (each its own client, session and address), 25 generator listings, and one
 * buy per buyer to open the wallets. Then 20 buyers at once each buy listings one after another
 * (as test/bench/market.ts does on SQLite), in two rounds per node taking turns; buys/s over the
 * rounds and each buy's p50/p99 as its buyer saw it. 24 buys per buyer stay under the route's
 * `llm` class limit (30 a minute per address).
 */
import { startChildNode, type ChildNode } from "../../support/child-node.ts"
import { Client, run } from "../../support/client.ts"
import { person } from "../../support/person.ts"
import { startPostgres } from "../../support/postgres.ts"
import { fixed, machineLoad, percentile, postgresVersion, ratio, table } from "./figures.ts"
import { cpuSeconds, postgresPids } from "./load.ts"

const buyers = 20
const rounds = 2
const buysPerRound = 12

const listing = (n: number) => ({
  kind: "generator" as const,
  refId: null,
  title: `Generator ${n}`,
  description: "A bench generator.",
  cover: null,
  priceCredits: 1,
  tags: [],
  brief: null
})

/**
 * A call again when the connection it went out on was closed under it: the node drops a kept-alive
 * connection idle for 5 s (the other node's round, or a slow registration beside it), and undici
 * may send on it just then. Such a request never reached the node, so sending it again is safe.
 */
const call = async <A>(send: () => Promise<A>): Promise<A> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send()
    } catch (error) {
      if (attempt >= 3 || !String(error).includes("Transport error")) throw error
    }
  }
}

/** The node's owner, buyers and listings, and one warm buy each; answers the buyers and the listings left to buy. */
const prepare = async (node: ChildNode) => {
  const owner = new Client(node.url)
  await run(owner.api.authPublic.register({ payload: person(node.ownerCode) }))
  const codes = await run(owner.api.auth.mintCodes({ payload: { count: buyers, note: "bench" } }))
  const clients: Array<Client> = []
  for (const { code } of codes) {
    const client = new Client(node.url)
    await call(() => run(client.api.authPublic.register({ payload: person(code) })))
    clients.push(client)
  }
  const listings = []
  for (let n = 0; n <= rounds * buysPerRound; n++)
    listings.push(await call(() => run(owner.api.market.publishListing({ payload: listing(n) }))))
  const [warm, ...rest] = listings
  await Promise.all(clients.map((client) => call(() => run(client.api.market.buyListing({ path: { id: warm!.id } })))))
  return { clients, listings: rest }
}

interface Tally {
  buys: number
  seconds: number
  nodeCpu: number
  postgresCpu: number
  readonly latencies: Array<number>
}

export const benchPostgresBuys = async () => {
  const cluster = await startPostgres()
  const nodes: Array<ChildNode> = []
  try {
    const url = await cluster.createDatabase()
    const env = { RATE_LIMIT_PER_MINUTE: "100000000", STARTING_CREDITS: "1000000" }
    nodes.push(await startChildNode({ env }), await startChildNode({ env: { ...env, DATABASE_URL: url } }))
    const prepared = await Promise.all(nodes.map(prepare))
    const tallies: Array<Tally> = nodes.map(() => ({ buys: 0, seconds: 0, nodeCpu: 0, postgresCpu: 0, latencies: [] }))
    for (let round = 0; round < rounds; round++) {
      for (const [i, { clients, listings }] of prepared.entries()) {
        // The server and its backends as they are now (the node's pool is open by then).
        const pg = postgresPids(cluster.port)
        const pgCpu = () => pg.reduce((sum, pid) => sum + cpuSeconds(pid), 0)
        const tally = tallies[i]!
        const these = listings.slice(round * buysPerRound, (round + 1) * buysPerRound)
        const before = { node: cpuSeconds(nodes[i]!.pid), pg: pgCpu(), wall: performance.now() }
        await Promise.all(
          clients.map(async (client) => {
            for (const { id } of these) {
              const started = performance.now()
              await call(() => run(client.api.market.buyListing({ path: { id } })))
              tally.latencies.push(performance.now() - started)
            }
          })
        )
        tally.seconds += (performance.now() - before.wall) / 1000
        tally.buys += clients.length * these.length
        tally.nodeCpu += cpuSeconds(nodes[i]!.pid) - before.node
        tally.postgresCpu += pgCpu() - before.pg
      }
    }
    const [onSqlite, onPostgres] = tallies.map((tally) => ({
      buysPerSecond: tally.buys / tally.seconds,
      p50: percentile(tally.latencies, 50),
      p99: percentile(tally.latencies, 99),
      nodeCpuMs: (tally.nodeCpu * 1000) / tally.buys,
      postgresCpuMs: (tally.postgresCpu * 1000) / tally.buys
    })) as [
      { buysPerSecond: number; p50: number; p99: number; nodeCpuMs: number; postgresCpuMs: number },
      { buysPerSecond: number; p50: number; p99: number; nodeCpuMs: number; postgresCpuMs: number }
    ]
    console.log(`${await postgresVersion(url)}; ${machineLoad()}`)
    console.log(
      `${buyers} buyers at once, ${rounds * buysPerRound} buys each per node, in ${rounds} rounds taking turns`
    )
    table([
      ["POST /api/market/listings/:id/buy", "SQLite", "PostgreSQL", "PG/SQLite"],
      [
        "buys/s",
        fixed(onSqlite.buysPerSecond),
        fixed(onPostgres.buysPerSecond),
        ratio(onPostgres.buysPerSecond, onSqlite.buysPerSecond)
      ],
      ["p50 (ms)", fixed(onSqlite.p50, 1), fixed(onPostgres.p50, 1), ratio(onPostgres.p50, onSqlite.p50)],
      ["p99 (ms)", fixed(onSqlite.p99, 1), fixed(onPostgres.p99, 1), ratio(onPostgres.p99, onSqlite.p99)],
      [
        "node CPU per buy (ms)",
        fixed(onSqlite.nodeCpuMs, 2),
        fixed(onPostgres.nodeCpuMs, 2),
        ratio(onPostgres.nodeCpuMs, onSqlite.nodeCpuMs)
      ],
      ["PostgreSQL CPU per buy (ms)", "—", fixed(onPostgres.postgresCpuMs, 2), ""]
    ])
  } finally {
    await Promise.all(nodes.map((node) => node.close()))
    cluster.stop()
  }
}

if (import.meta.main) await benchPostgresBuys()

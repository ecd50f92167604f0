/**
 * A message round trip between entities on different runners beside one on the same runner
 * (issue 16). Two bench-only runner processes (./echo-runner.ts: the node's socket runner layer,
 * one echo entity kind) on one throwaway PostgreSQL; once the shards settled, runner A sends
 * echoes one after another to an entity it holds itself (in-process delivery) and to one B holds
 * (msgpack over the runners' socket and back), taking turns in batches. Timed inside A, so
 * neither HTTP nor the bench's IPC is in the figure. Non-persisted Rpcs: a persisted one would
 * add a database write and read to both.
 */
import { startPostgres } from "../../support/postgres.ts"
import { startEchoRunner } from "./echo-runners.ts"
import { fixed, machineLoad, percentile, postgresVersion, ratio, table } from "./figures.ts"
import { onRunner, settled } from "./placement.ts"

const batches = 10
const perBatch = 200

export const benchClusterMessaging = async () => {
  const cluster = await startPostgres()
  try {
    const url = await cluster.createDatabase()
    const a = await startEchoRunner(url)
    const b = await startEchoRunner(url)
    try {
      const where = await settled(a, [a, b])
      const local = onRunner(where, a)[0]!
      const remote = onRunner(where, b)[0]!
      // Warm-up: both paths once, off the clock (the socket to B is opened by the first message).
      await a.ask({ op: "roundTrips", entity: local, count: perBatch })
      await a.ask({ op: "roundTrips", entity: remote, count: perBatch })
      const times = { local: [] as Array<number>, remote: [] as Array<number> }
      for (let batch = 0; batch < batches; batch++) {
        for (const [path, entity] of [
          ["local", local],
          ["remote", remote]
        ] as const) {
          const answer = await a.ask({ op: "roundTrips", entity, count: perBatch })
          if (!answer.ok) throw new Error(`echo to ${entity} failed: ${answer.error}`)
          times[path].push(...(answer.timesMs ?? []))
        }
      }
      const p = (path: "local" | "remote", q: number) => percentile(times[path], q)
      console.log(`${await postgresVersion(url)}; ${machineLoad()}`)
      console.log(
        `${batches * perBatch} echoes each way, one at a time, from runner A, in ${batches} alternating batches`
      )
      table([
        ["round trip (ms)", "p50", "p99", "msgs/s one at a time"],
        [
          "A → entity on A (same runner)",
          fixed(p("local", 50), 3),
          fixed(p("local", 99), 3),
          fixed(1000 / p("local", 50))
        ],
        [
          "A → entity on B (other runner, socket)",
          fixed(p("remote", 50), 3),
          fixed(p("remote", 99), 3),
          fixed(1000 / p("remote", 50))
        ],
        ["other / same", ratio(p("remote", 50), p("local", 50)), ratio(p("remote", 99), p("local", 99)), ""]
      ])
    } finally {
      await Promise.all([a.kill(), b.kill()])
    }
  } finally {
    cluster.stop()
  }
}

if (import.meta.main) await benchClusterMessaging()

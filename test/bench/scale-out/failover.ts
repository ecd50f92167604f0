/**
 * Time from `kill -9` of a runner to its entities answering again from the survivor (issue 16).
 * Two bench-only runner processes (./echo-runner.ts: the node's socket runner layer with its
 * 2 s heartbeat and 8 s expiry, so the same failover as the node's) on one throwaway PostgreSQL;
 * each round kills the runner holding a chosen entity (alternately the older and the newer, since
 * which of them runs the health check's singleton matters) and asks the survivor for that entity
 * every 50 ms (each ask given 250 ms) until the survivor itself answers. Then a fresh runner
 * joins and the shards settle again before the next round.
 */
import { startPostgres } from "../../support/postgres.ts"
import { startEchoRunner, type EchoRunner } from "./echo-runners.ts"
import { fixed, machineLoad, percentile, postgresVersion } from "./figures.ts"
import { onRunner, settled } from "./placement.ts"
import { meets, recordVerdict } from "../verdicts.ts"

const rounds = Math.max(1, Number(process.env.BENCH_FAILOVER_ROUNDS ?? 5))
const giveUpMs = 60_000
/** Issue 27's aim, held by every round: whoever's entity was on the killed runner waits that long. */
const aimMs = 3000

const answeredBy = async (survivor: EchoRunner, entity: string) => {
  for (const deadline = Date.now() + giveUpMs; Date.now() < deadline; ) {
    const answer = await survivor.ask({ op: "echo", entity, timeoutMs: 250 })
    if (answer.ok && answer.runner === survivor.address) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${entity} did not answer from ${survivor.address} within ${giveUpMs} ms`)
}

export const benchFailover = async () => {
  const cluster = await startPostgres()
  const runners: Array<EchoRunner> = []
  try {
    const url = await cluster.createDatabase()
    runners.push(await startEchoRunner(url), await startEchoRunner(url))
    const times: Array<number> = []
    for (let round = 0; round < rounds; round++) {
      const where = await settled(runners[0]!, runners)
      const victimIndex = round % 2
      const victim = runners[victimIndex]!
      const survivor = runners[1 - victimIndex]!
      const entity = onRunner(where, victim)[0]!
      const killedAt = performance.now()
      await victim.kill()
      await answeredBy(survivor, entity)
      times.push(performance.now() - killedAt)
      runners[victimIndex] = await startEchoRunner(url)
    }
    const worst = Math.max(...times)
    console.log(`${await postgresVersion(url)}; ${machineLoad()}`)
    console.log(`${rounds} rounds: kill -9 of the runner holding an entity → that entity answering from the survivor`)
    console.log(
      `median ${fixed(percentile(times, 50) / 1000, 1)} s, worst ${fixed(worst / 1000, 1)} s ` +
        `(rounds: ${times.map((ms) => fixed(ms / 1000, 1)).join(", ")} s); a dead runner's liveness lock is looked for every 0.5 s, the assignment refreshed every 1 s (the heartbeat's 8 s expiry is the backstop)`
    )
    recordVerdict({
      figure: "kill -9 of a runner → its entities answer again",
      measured: `worst ${fixed(worst / 1000, 1)} s, median ${fixed(percentile(times, 50) / 1000, 1)} s (${rounds} rounds)`,
      anchor: "—",
      aim: `< ${aimMs / 1000} s`,
      met: meets(worst, (ms) => ms < aimMs)
    })
  } finally {
    await Promise.all(runners.map((runner) => runner.kill()))
    cluster.stop()
  }
}

if (import.meta.main) await benchFailover()

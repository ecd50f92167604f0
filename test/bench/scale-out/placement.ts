/**
 * Where the echo entities run, as the runners themselves answer it, and waiting until the shards
 * have settled over the runners given (a runner that joins takes its shards at the others' next
 * assignment refresh, every few seconds).
 */
import type { EchoRunner } from "./echo-runners.ts"

export const entities = Array.from({ length: 24 }, (_, n) => `echo-${n}`)

/** Each entity's runner address, asked from `from` (an entity that does not answer in time: ""). */
export const placement = async (from: EchoRunner, timeoutMs = 2_000) => {
  const answers = await Promise.all(entities.map((entity) => from.ask({ op: "echo", entity, timeoutMs })))
  return new Map(
    entities.map((entity, n) => {
      const answer = answers[n]!
      return [entity, answer.ok ? answer.runner : ""] as const
    })
  )
}

const same = (a: Map<string, string>, b: Map<string, string>) =>
  [...a].every(([entity, runner]) => b.get(entity) === runner)

/** Polls until every entity answers, every runner holds some, and two looks a second apart agree. */
export const settled = async (from: EchoRunner, runners: ReadonlyArray<EchoRunner>, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  let last = new Map<string, string>()
  for (;;) {
    const now = await placement(from)
    const used = new Set(now.values())
    if (runners.every((runner) => used.has(runner.address)) && !used.has("") && same(now, last)) return now
    if (Date.now() > deadline)
      throw new Error(
        `the shards did not settle over ${runners.map((r) => r.address).join(", ")} within ${timeoutMs} ms`
      )
    last = now
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
}

export const onRunner = (where: Map<string, string>, runner: EchoRunner) =>
  [...where].filter(([, address]) => address === runner.address).map(([entity]) => entity)

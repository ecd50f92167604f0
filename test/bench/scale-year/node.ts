/**
 * The two nodes of the scale bench over one data folder. The seeding node runs in this process
 * (the whole node layer, as test/support/node.ts builds it, whose module cannot load outside
 * vitest), so the seeding reaches the node's own services; it is closed before the timing. The
 * timed node is the node as `npm start` runs it, a process of its own over the seeded folder
 * (test/support/child-node.ts): its start is what an owner waits for, and its requests do not
 * share an event loop with the client that times them.
 */
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { performance } from "node:perf_hooks"
import { setTimeout as sleep } from "node:timers/promises"
import { BootInfo, bootInfoLayer } from "../../../host/boot.ts"
import { nodeLayer } from "../../../host/node.ts"
import { SETTLE_AFTER_MS } from "../../../host/settle-heap.ts"
import { startChildNode, type ChildNode } from "../../support/child-node.ts"
import { Client, run } from "../../support/client.ts"
import { freePort } from "../../support/free-port.ts"
import { person } from "../../support/person.ts"

/** Neither node limits the bench's own requests (the per-class limits are met by changing address). */
const RATE_LIMIT = 100_000_000

const seedingLayer = (dataDir: string) =>
  bootInfoLayer.pipe(
    Layer.provideMerge(
      nodeLayer({
        settings: {
          dataDir,
          port: 0,
          host: "127.0.0.1",
          trustProxy: 1,
          rateLimitPerMinute: RATE_LIMIT
        }
      })
    )
  )

export interface SeedingNode {
  readonly url: string
  readonly ownerCode: string
  readonly runtime: ManagedRuntime.ManagedRuntime<
    Layer.Layer.Success<ReturnType<typeof seedingLayer>>,
    Layer.Layer.Error<ReturnType<typeof seedingLayer>>
  >
}

export const startSeedingNode = async (dataDir: string): Promise<SeedingNode> => {
  const runtime = ManagedRuntime.make(seedingLayer(dataDir))
  const info = await runtime.runPromise(BootInfo)
  return { url: info.url, ownerCode: Option.getOrThrow(info.ownerCode), runtime }
}

export interface Person {
  readonly client: Client
  readonly email: string
  readonly password: string
  readonly being: { readonly id: string }
}

export const registerOwner = async (node: SeedingNode): Promise<Person> => {
  const client = new Client(node.url)
  const body = person(node.ownerCode)
  const { being } = await run(client.api.authPublic.register({ payload: body }))
  return { client, email: body.email, password: body.password, being }
}

export const registerMember = async (node: SeedingNode, owner: Person, n: number): Promise<Person> => {
  const [minted] = await run(owner.client.api.auth.mintCodes({ payload: { count: 1, note: `member ${n}` } }))
  const client = new Client(node.url)
  const body = person(minted!.code)
  const { being } = await run(client.api.authPublic.register({ payload: body }))
  return { client, email: body.email, password: body.password, being }
}

/** A client from a fresh address with the same session: the per-class rate limits count by address. */
export const sameSession = (person: Client) => {
  const client = new Client(person.base)
  client.copyCookiesFrom(person)
  return client
}

export interface TimedStart {
  readonly node: ChildNode
  /** Milliseconds from spawning the process to the first 200 of /api/health. */
  readonly ms: number
  /** When it answered (performance.now()). */
  readonly healthyAt: number
}

/** Starts the node as its own process over `dataDir` and times it to its first healthy answer. */
export const startTimed = async (dataDir: string): Promise<TimedStart> => {
  const port = await freePort()
  const started = performance.now()
  const node = await startChildNode({ dataDir, port, env: { RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) } })
  for (;;) {
    const answer = await fetch(`${node.url}/api/health`).catch(() => null)
    if (answer?.status === 200) {
      await answer.arrayBuffer()
      break
    }
    await answer?.arrayBuffer()
    if (performance.now() - started > 60_000)
      throw new Error(`the node was not healthy within a minute:\n${node.output()}`)
    await sleep(5)
  }
  const healthyAt = performance.now()
  return { node, ms: healthyAt - started, healthyAt }
}

/**
 * The owner signed in on the timed node, once the node's one collection after start is over
 * (host/settle-heap.ts: 150–250 ms of its main thread, SETTLE_AFTER_MS after it listens), so
 * that pause lands in no route's figures.
 */
export const signIn = async (url: string, owner: Person, startedAt: number) => {
  const client = new Client(url)
  await run(client.api.authPublic.login({ payload: { email: owner.email, password: owner.password } }))
  const settled = startedAt + SETTLE_AFTER_MS + 1000
  if (performance.now() < settled) await sleep(settled - performance.now())
  return client
}

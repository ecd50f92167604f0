/**
 * A real node for API tests: the whole host on an ephemeral loopback port, over a fresh
 * SQLite file in a temp folder. Callers talk to it over real HTTP, through the typed client
 * derived from the contract (`NodeApi`), one client per person (see client.ts).
 */
import type * as Clock from "effect/Clock"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import { afterAll, beforeAll } from "vitest"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { NodeSettings } from "../../host/settings.ts"
import { BootInfo, bootInfoLayer } from "../../host/boot.ts"
import { nodeLayer } from "../../host/node.ts"
import { Client, run } from "./client.ts"
import { person } from "./person.ts"

export {
  Client,
  apiError,
  attempt,
  badPageQueries,
  bodyAs,
  firstPage,
  refused,
  run,
  type Outcome,
  type WireAnswer,
  type Refusal
} from "./client.ts"
export { person } from "./person.ts"

export interface TestNodeOptions {
  readonly uiDir?: string
  /** The node's Clock (a restart test starts it hours on); the real one when absent. */
  readonly clock?: Clock.Clock
  /** A data folder of the caller's (another node's, say), kept when the node closes; else a fresh one, removed. */
  readonly dataDir?: string
}

const testNodeLayer = (settings: Partial<NodeSettings>, { clock, dataDir: _dataDir, ...options }: TestNodeOptions) => {
  const layer = bootInfoLayer.pipe(Layer.provideMerge(nodeLayer({ ...options, settings })))
  return clock === undefined ? layer : Layer.provide(layer, Layer.setClock(clock))
}

type TestNodeLayer = ReturnType<typeof testNodeLayer>

/** The node's own services, for tests that reach past HTTP (its database, its actors). */
export type NodeServices = Layer.Layer.Success<TestNodeLayer>

export interface TestNode {
  readonly url: string
  readonly ownerCode: string
  readonly dataDir: string
  /** Runs an Effect against the node's own services (its database, its settings). */
  readonly runtime: ManagedRuntime.ManagedRuntime<NodeServices, Layer.Layer.Error<TestNodeLayer>>
  readonly close: () => Promise<void>
}

/** Settings may depend on the node's fresh data folder (a plugin folder inside it, say). */
export const startNode = async (
  overrides: Partial<NodeSettings> | ((dataDir: string) => Partial<NodeSettings>) = {},
  options: TestNodeOptions = {}
): Promise<TestNode> => {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "node-test-"))
  const settings = typeof overrides === "function" ? overrides(dataDir) : overrides
  const runtime = ManagedRuntime.make(
    // Files sit in the data folder itself (FILES_DIR = DATA_DIR) unless a test points them elsewhere: the API tests
    // read them there.
    testNodeLayer(
      { dataDir, filesDir: Option.some(dataDir), port: 0, host: "127.0.0.1", trustProxy: 1, ...settings },
      options
    )
  )
  const info = await runtime.runPromise(BootInfo)
  return {
    url: info.url,
    ownerCode: Option.getOrElse(info.ownerCode, () => ""),
    dataDir,
    runtime,
    close: async () => {
      await runtime.dispose()
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** Registers the owner with the node's bootstrap code; answers their client. */
export const registerOwner = async (node: TestNode, headers: Record<string, string> = {}) => {
  const owner = new Client(node.url, headers)
  const registration = person(node.ownerCode)
  const { being } = await run(owner.api.authPublic.register({ payload: registration }))
  return { client: owner, registration, being }
}

/** Mints one code as the owner and registers a new member with it. */
export const registerMember = async (node: TestNode, owner: Client, headers: Record<string, string> = {}) => {
  const [minted] = await run(owner.api.auth.mintCodes({ payload: { count: 1, note: "member" } }))
  const member = new Client(node.url, headers)
  const registration = person(minted!.code)
  const { being } = await run(member.api.authPublic.register({ payload: registration }))
  return { client: member, registration, being }
}

export type Registered = Awaited<ReturnType<typeof registerOwner>>

/**
 * A node with its owner registered, for the whole test file: started before the first test,
 * closed after the last. Read `node` and `owner` inside tests (they are set by then).
 */
export const nodeWithOwner = (overrides?: Parameters<typeof startNode>[0]) => {
  const context = {} as { node: TestNode; owner: Registered }
  beforeAll(async () => {
    context.node = await startNode(overrides)
    context.owner = await registerOwner(context.node)
  })
  afterAll(() => context.node.close())
  return context
}

/**
 * A real node on a real PostgreSQL for API tests: a throwaway cluster (postgres.ts), a fresh
 * database in it, and the whole node started with `DATABASE_URL` naming it, for the whole file.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll } from "vitest"
import type { NodeSettings } from "../../host/settings.ts"
import { registerOwner, startNode, type Registered, type TestNode } from "./node.ts"
import { startPostgres, type TestPostgres } from "./postgres.ts"

/**
 * Read `node` inside tests (set by then); `databaseUrl` is the database it runs on. `settings` may
 * be a function, read when the node starts (after the file's earlier `beforeAll`s, a model server's).
 */
export const nodeOnPostgres = (
  overrides: Parameters<typeof startNode>[1] = {},
  settings: Partial<NodeSettings> | (() => Partial<NodeSettings>) = {}
) => {
  const context = {} as { node: TestNode; cluster: TestPostgres; databaseUrl: string }
  beforeAll(async () => {
    context.cluster = await startPostgres()
    context.databaseUrl = await context.cluster.createDatabase()
    const own = typeof settings === "function" ? settings() : settings
    context.node = await startNode({ ...own, databaseUrl: Option.some(Redacted.make(context.databaseUrl)) }, overrides)
  }, 120_000)
  afterAll(async () => {
    await context.node?.close()
    context.cluster?.stop()
  })
  return context
}

/** As `nodeWithOwner`, on PostgreSQL: the node and its registered owner. */
export const nodeOnPostgresWithOwner = (settings: Partial<NodeSettings> | (() => Partial<NodeSettings>) = {}) => {
  const context = nodeOnPostgres({}, settings) as ReturnType<typeof nodeOnPostgres> & { owner: Registered }
  beforeAll(async () => {
    context.owner = await registerOwner(context.node)
  })
  return context
}

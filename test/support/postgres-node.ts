/**
 * A real node on a real PostgreSQL for API tests: a throwaway cluster (postgres.ts), a fresh
 * database in it, and the whole node started with `DATABASE_URL` naming it, for the whole file.
 */
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll } from "vitest"
import { startNode, type TestNode } from "./node.ts"
import { startPostgres, type TestPostgres } from "./postgres.ts"

/** Read `node` inside tests (set by then); `databaseUrl` is the database it runs on. */
export const nodeOnPostgres = (overrides: Parameters<typeof startNode>[1] = {}) => {
  const context = {} as { node: TestNode; cluster: TestPostgres; databaseUrl: string }
  beforeAll(async () => {
    context.cluster = await startPostgres()
    context.databaseUrl = await context.cluster.createDatabase()
    context.node = await startNode({ databaseUrl: Option.some(Redacted.make(context.databaseUrl)) }, overrides)
  }, 120_000)
  afterAll(async () => {
    await context.node?.close()
    context.cluster?.stop()
  })
  return context
}

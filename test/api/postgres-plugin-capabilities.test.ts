/**
 * A plugin's credits and storage on PostgreSQL (the cases: plugin-capabilities-cases.ts): the spend's
 * row locks hold the limit under racing calls, and the store's bytes are counted in PostgreSQL's SQL.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { nodeOnPostgresWithOwner } from "../support/postgres-node.ts"
import { pluginCapabilityCases } from "./plugin-capabilities-cases.ts"

const figures = { start: 100, limit: 30 }
const pluginDir = mkdtempSync(join(tmpdir(), "plugins-"))
afterAll(() => rmSync(pluginDir, { recursive: true, force: true }))
const context = nodeOnPostgresWithOwner({
  pluginDir,
  startingCredits: figures.start,
  pluginCreditsDailyLimit: figures.limit
})
pluginCapabilityCases("a plugin's credits and storage on PostgreSQL", context, () => pluginDir, figures)

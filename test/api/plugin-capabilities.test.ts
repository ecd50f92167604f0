/** A plugin's credits and storage under racing calls, on SQLite (the cases: plugin-capabilities-cases.ts). */
import { join } from "node:path"
import { nodeWithOwner } from "../support/node.ts"
import { pluginCapabilityCases } from "./plugin-capabilities-cases.ts"

const figures = { start: 100, limit: 30 }
const context = nodeWithOwner((dataDir) => ({
  pluginDir: join(dataDir, "plugins"),
  startingCredits: figures.start,
  pluginCreditsDailyLimit: figures.limit
}))
pluginCapabilityCases("a plugin's credits and storage", context, () => join(context.node.dataDir, "plugins"), figures)

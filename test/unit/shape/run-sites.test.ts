/**
 * Built-ins are Effects: a feature runs an effect as a Promise only where something outside
 * Effect calls it. The issue "One home per feature" asks for at most five such sites outside the
 * process's start, the isolate boundary, the web app and the tests, each saying why. The capability
 * adapters are Effects; their one Promise façade is the isolate's boundary (plugin-isolate.ts). What
 * is left runs an effect where Promise code calls back, each saying why beside the call. The list only
 * shrinks: a new site fails, and so does a listed file that no longer runs one.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot, sourceFiles } from "./imports.ts"

const runCall = /\b(?:Runtime|Effect)\.run(?:Promise|Sync|Fork|Callback|PromiseExit|SyncExit)\b/g

/**
 * Where running is the point: the process's start, the HTTP server's fiber per request, the isolate boundary (the
 * guest's skills inside; outside, plugin-isolate.ts runs each adapter Effect a plugin awaits as a Promise), and the
 * contract's client, which the web app and the tests use (a group made on a property access).
 */
const boundaries = [
  "host/main.ts",
  "host/start.ts",
  "host/owner-reset.ts",
  "host/restore.ts",
  "host/http/server.ts",
  "host/contract/client.ts",
  "kernel/extensions/isolate/guest.ts",
  "kernel/extensions/isolate/plugin-isolate.ts"
]

/** Sites left, with how many calls each holds: the isolate's stop callback (host.ts) and a seeded pure draw (generate.ts). */
const stillToMove: Record<string, number> = {
  "kernel/extensions/host.ts": 1,
  "extensions/souls/generate.ts": 1
}

describe("running an effect outside Effect", () => {
  const sites = Object.fromEntries(
    sourceFiles()
      .filter((file) => !file.startsWith("ui/") && !boundaries.includes(file))
      .map((file) => [file, [...readFileSync(join(repoRoot, file), "utf8").matchAll(runCall)].length] as const)
      .filter(([, count]) => count > 0)
  )

  it("happens only at the boundaries and the sites still listed to move", () => {
    expect(Object.entries(sites).filter(([file, count]) => count > (stillToMove[file] ?? 0))).toEqual([])
  })

  it("lists only sites that still run one", () => {
    expect(Object.keys(stillToMove).filter((file) => (sites[file] ?? 0) < stillToMove[file]!)).toEqual([])
  })
})

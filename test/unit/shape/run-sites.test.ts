/**
 * Built-ins are Effects: a feature runs an effect as a Promise only where something outside
 * Effect calls it. The issue "One home per feature" asks for at most five such sites outside the
 * process's start, the isolate boundary, the web app and the tests, each saying why. Today the
 * capability adapters still build a Promise façade each; they are listed here to move behind the
 * one façade at the isolate boundary. The list only shrinks: a new site fails, and so does a
 * listed file that no longer runs one.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { repoRoot, sourceFiles } from "./imports.ts"

const runCall = /\b(?:Runtime|Effect)\.run(?:Promise|Sync|Fork|Callback|PromiseExit|SyncExit)\b/g

/** Where running is the point: the process's start, the HTTP server's fiber per request, the isolate boundary. */
const boundaries = [
  "host/main.ts",
  "host/start.ts",
  "host/owner-reset.ts",
  "host/http/server.ts",
  "kernel/extensions/isolate/guest.ts"
]

/** Sites still to move behind the isolate boundary's façade, with how many calls each holds. */
const stillToMove: Record<string, number> = {
  "kernel/extensions/host.ts": 1,
  "extensions/sandbox/adapter.ts": 1,
  "extensions/twin/plugin-integrations.ts": 1,
  "extensions/twin/memory-adapter.ts": 1,
  "extensions/twin/folders.ts": 1,
  "extensions/souls/generate.ts": 1,
  "extensions/models/adapter.ts": 1,
  "extensions/threads/attachments.ts": 1,
  "extensions/time/schedule-adapter.ts": 1,
  "extensions/comms/adapter.ts": 2,
  "extensions/plugins/oauth/authorised-fetch.ts": 2,
  "extensions/plugins/signals-adapter.ts": 1,
  "extensions/studio/authoring-adapter.ts": 1,
  "extensions/studio/bundle-files.ts": 1
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

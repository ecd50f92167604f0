/**
 * A started node writes V8's compile cache at once (host/start.ts), not only at a clean exit: a node ended by SIGKILL
 * or a crash would otherwise start cold every time, slower and about 12 MB larger at rest (docs/decisions.md, "Memory
 * given back when the node is quiet"). The cache goes where host/bundled-start.ts puts it, under the system's temp
 * folder, here a folder of the test's own.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"
import { startChildNode } from "../support/child-node.ts"
import { until } from "../support/until.ts"

const temp = mkdtempSync(join(tmpdir(), "compile-cache-"))
afterAll(() => rmSync(temp, { recursive: true, force: true }))

/**
 * Every file's bytes under a folder, however deep. Node writes each entry to a temporary name and renames it, so a file
 * listed may be gone by its `stat`: it counts as nothing (its renamed self is read on the next poll).
 */
const bytesUnder = (folder: string): number =>
  !existsSync(folder)
    ? 0
    : readdirSync(folder, { withFileTypes: true }).reduce(
        (sum, entry) =>
          sum +
          (entry.isDirectory()
            ? bytesUnder(join(folder, entry.name))
            : (statSync(join(folder, entry.name), { throwIfNoEntry: false })?.size ?? 0)),
        0
      )

it("is written once the node has started, before any exit", async () => {
  const node = await startChildNode({ env: { TMPDIR: temp } })
  try {
    await until("the owner code", () => node.output().includes("Owner access code"), 60_000)
    const cache = join(temp, "node-compile-cache")
    // The bundle's compiled code, hundreds of kilobytes at least, while the node still runs.
    await until("the compile cache written", () => bytesUnder(cache) > 100_000, 10_000)
    expect(bytesUnder(cache)).toBeGreaterThan(100_000)
  } finally {
    await node.kill("SIGKILL")
  }
}, 90_000)

/**
 * A folder of the test's own under the system's temporary folder, removed when the test ends
 * (passed or failed), so runs leave nothing behind. Call it inside a test.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { onTestFinished } from "vitest"

export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

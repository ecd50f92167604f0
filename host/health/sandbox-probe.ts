/**
 * Whether this machine can isolate code: bubblewrap must be installed and able to unshare
 * every namespace. Probed by running it, cached for a minute, never assumed.
 */
import { spawnSync } from "node:child_process"

export interface SandboxStatus {
  readonly available: boolean
  readonly runtime: string | null
  readonly reason: string | null
  readonly checkedAt: string
}

const CACHE_MS = 60_000

const probe = (now: number): SandboxStatus => {
  const checkedAt = new Date(now).toISOString()
  const run = spawnSync("bwrap", ["--unshare-all", "--ro-bind", "/", "/", "--", "true"], { timeout: 5_000 })
  if (run.error !== undefined) {
    const missing = (run.error as NodeJS.ErrnoException).code === "ENOENT"
    return {
      available: false,
      runtime: null,
      reason: missing ? "bubblewrap is not installed (apt-get install bubblewrap)" : run.error.message,
      checkedAt
    }
  }
  if (run.status !== 0) {
    return { available: false, runtime: "bubblewrap", reason: run.stderr.toString().trim().slice(0, 300), checkedAt }
  }
  return { available: true, runtime: "bubblewrap", reason: null, checkedAt }
}

export const makeSandboxProbe = () => {
  let cached: { at: number; status: SandboxStatus } | null = null
  return (now: number): SandboxStatus => {
    if (cached === null || now - cached.at >= CACHE_MS) cached = { at: now, status: probe(now) }
    return cached.status
  }
}

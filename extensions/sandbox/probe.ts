/**
 * What this machine lets the sandbox do, found by trying, never assumed: bubblewrap present and
 * able to unshare every namespace (user and network included); the seccomp filter loading; the
 * Landlock ABI as seen inside the sandbox; which cgroup controllers the node may write; whether a
 * Docker engine answers. Run at start and again when a minute has passed.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { writableControllers, type CgroupController } from "./cgroups.ts"
import { dockerAnswers } from "./docker.ts"
import { novaArgv } from "./nova.ts"
import { seccompProgram, seccompSupported } from "./seccomp.ts"
import { cleanEnv, spawnRun, type SpawnResult } from "./spawn-run.ts"

export interface SandboxProbe {
  readonly checkedAt: string
  /** bubblewrap ran with every namespace unshared (user and network included). */
  readonly namespaces: boolean
  readonly seccomp: boolean
  /** 0 when Landlock is absent. */
  readonly landlockAbi: number
  readonly cgroups: ReadonlyArray<CgroupController>
  readonly docker: boolean
  /** Why nova cannot isolate here; null when it can. */
  readonly novaReason: string | null
}

export const probeCacheMs = 60_000

const attempt = (argv: ReadonlyArray<string>, fd3?: Uint8Array): Promise<SpawnResult | string> =>
  spawnRun({ argv, env: cleanEnv("/"), timeoutMs: 5_000, ...(fd3 === undefined ? {} : { fd3 }) }).catch(
    (error: NodeJS.ErrnoException) =>
      error.code === "ENOENT"
        ? "bubblewrap is not installed (apt-get install bubblewrap)"
        : `bubblewrap did not run: ${error.message}`
  )

const unshareFailure = (result: SpawnResult) =>
  `bubblewrap could not unshare every namespace (${result.stderr.trim().slice(0, 300) || `exit ${result.exitCode}`}); ` +
  "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0)"

const bare = [
  "bwrap",
  "--unshare-all",
  "--unshare-user",
  "--ro-bind",
  "/usr",
  "/usr",
  "--symlink",
  "usr/bin",
  "/bin",
  "--symlink",
  "usr/lib",
  "/lib",
  "--symlink",
  "usr/lib64",
  "/lib64",
  "--",
  "/usr/bin/true"
]

/** The launcher asked, inside the full sandbox with the filter loaded, which Landlock ABI it sees. */
const probeInside = async (workspace: string): Promise<{ readonly landlockAbi: number } | string> => {
  const protections = { seccomp: seccompSupported, landlockAbi: 0, cgroups: [] }
  const argv = novaArgv({ workspace, command: ["/usr/bin/true"], timeoutMs: 5_000, protections, probe: true })
  const result = await attempt(argv, seccompSupported ? seccompProgram() : undefined)
  if (typeof result === "string") return result
  const answer = /"landlockAbi":\s*(\d+)/.exec(result.stdout)
  if (result.exitCode !== 0 || answer === null) {
    return `the sandbox's filter or launcher failed (${result.stderr.trim().slice(0, 300) || `exit ${result.exitCode}`}); is /usr/bin/python3 installed?`
  }
  return { landlockAbi: Number(answer[1]) }
}

export const probeSandbox = async (now: number): Promise<SandboxProbe> => {
  const checkedAt = new Date(now).toISOString()
  const cgroups = writableControllers()
  const docker = await dockerAnswers()
  const none = { checkedAt, namespaces: false, seccomp: false, landlockAbi: 0, cgroups, docker }
  const namespaces = await attempt(bare)
  if (typeof namespaces === "string") return { ...none, novaReason: namespaces }
  if (namespaces.exitCode !== 0) return { ...none, novaReason: unshareFailure(namespaces) }
  const workspace = mkdtempSync(join(tmpdir(), "svc-probe-"))
  try {
    const inside = await probeInside(workspace)
    // Namespaces hold but the filter or the launcher failed: nova does not run half-protected.
    if (typeof inside === "string") return { ...none, namespaces: true, novaReason: inside }
    return { ...none, namespaces: true, seccomp: seccompSupported, landlockAbi: inside.landlockAbi, novaReason: null }
  } finally {
    rmSync(workspace, { recursive: true, force: true })
  }
}

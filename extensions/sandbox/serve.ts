/**
 * A long-lived process in nova (an MCP server a plugin is): the same bubblewrap, seccomp, Landlock and rlimits as a
 * code run, with the plugin's folder read-only at /plugin and its data folder the one writable folder (/workspace),
 * no network unless granted, and its stdin and stdout left open for the protocol. It dies with the node (bubblewrap's
 * --die-with-parent); `stop` kills its whole process group.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { inGroups, novaArgv, type NovaProtections, sandboxWorkspace } from "./nova.ts"
import { seccompProgram } from "./seccomp.ts"
import { cleanEnv } from "./spawn-run.ts"

/** Where the plugin's folder appears inside the sandbox. */
export const servedPluginFolder = "/plugin"

/** The CPU a served process may spend in all (RLIMIT_CPU): a day of one core, a bound on a runaway server. */
const servedCpuMs = 24 * 60 * 60 * 1000

export interface ServedProcess {
  /** A file in the plugin's folder, run as it is (its `#!` line names the interpreter). */
  readonly command: string
  readonly args: ReadonlyArray<string>
  readonly pluginFolder: string
  readonly dataFolder: string
  readonly network: boolean
}

export interface Served {
  readonly child: ChildProcessWithoutNullStreams
  readonly stop: () => void
}

export const serveInNova = (served: ServedProcess, protections: NovaProtections): Served => {
  mkdirSync(served.dataFolder, { recursive: true })
  const argv = novaArgv({
    workspace: served.dataFolder,
    command: [`${servedPluginFolder}/${served.command}`, ...served.args],
    timeoutMs: servedCpuMs,
    protections: { ...protections, cgroups: [] },
    readOnly: [{ host: served.pluginFolder, inside: servedPluginFolder }],
    network: served.network
  })
  const [command, ...args] = inGroups(argv, [])
  const child = spawn(command!, args, {
    env: cleanEnv(sandboxWorkspace),
    detached: true,
    stdio: ["pipe", "pipe", "pipe", ...(protections.seccomp ? ["pipe" as const] : [])]
  }) as ChildProcessWithoutNullStreams
  if (protections.seccomp) {
    const pipe = child.stdio[3] as NodeJS.WritableStream
    pipe.on("error", () => {})
    pipe.end(seccompProgram())
  }
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    } catch {
      // Already gone.
    }
  }
  return { child, stop }
}

/**
 * nova: our daemonless supervisor for python and sh, on bubblewrap. Every namespace is unshared
 * (no network at all: `--unshare-all` without `--share-net`), the root is a few read-only binds of
 * what the interpreters need, the workspace is the one writable bind, the child dies with its
 * parent in a session of its own, user namespaces cannot be nested, the seccomp filter
 * (seccomp.ts) is loaded before the code starts, and the launcher (launcher.py) sets rlimits and
 * Landlock before it becomes the interpreter. Where cgroups are writable, the run sits in groups
 * of its own (cgroups.ts). The deadline kills bubblewrap's process group; its pid namespace takes
 * every process inside down with it.
 */
import { existsSync, lstatSync, readFileSync } from "node:fs"
import type { CodeLanguage, CodeReport } from "../../kernel/extensions/process.ts"
import { createRunGroups, type CgroupController } from "./cgroups.ts"
import { sandboxLimits } from "./limits.ts"
import type { TierRun } from "./run.ts"
import { seccompProgram } from "./seccomp.ts"
import { cleanEnv, spawnRun } from "./spawn-run.ts"

export const launcherSource = readFileSync(new URL("./launcher.py", import.meta.url), "utf8")

/** Where the workspace appears inside the sandbox. */
export const sandboxWorkspace = "/workspace"
const python = "/usr/bin/python3"

/** What nova applies, as the probe found the kernel allows it. */
export interface NovaProtections {
  readonly seccomp: boolean
  readonly landlockAbi: number
  readonly cgroups: ReadonlyArray<CgroupController>
}

/** The usr-merged top-level links (/bin -> usr/bin, ...) as links; a real folder as a read-only bind. */
const systemRoots = (): ReadonlyArray<string> =>
  ["/bin", "/lib", "/lib64", "/sbin"].flatMap((path) => {
    if (!existsSync(path)) return []
    const stat = lstatSync(path)
    return stat.isSymbolicLink() ? ["--symlink", `usr${path}`, path] : ["--ro-bind", path, path]
  })

const interpreter = (language: Exclude<CodeLanguage, "javascript">, code: string): ReadonlyArray<string> =>
  language === "python" ? [python, "-I", "-c", code] : ["/bin/sh", "-c", code]

/** A host folder bound read-only inside the sandbox (an MCP server's plugin folder). */
export interface ReadOnlyBind {
  readonly host: string
  readonly inside: string
}

const launcherConfig = (
  timeoutMs: number,
  protections: NovaProtections,
  probe: boolean,
  readOnly: ReadonlyArray<ReadOnlyBind>
) => ({
  probe,
  rlimits: {
    RLIMIT_AS: sandboxLimits.memoryBytes * 2,
    RLIMIT_CPU: Math.ceil(timeoutMs / 1000) + 1,
    RLIMIT_NPROC: sandboxLimits.processes,
    RLIMIT_FSIZE: sandboxLimits.fileBytes,
    RLIMIT_NOFILE: 256,
    RLIMIT_CORE: 0
  },
  landlock:
    protections.landlockAbi >= 1
      ? [
          ["/", "list"],
          ["/usr", "read"],
          ["/etc", "read"],
          ["/proc", "read"],
          ["/dev", "device"],
          [sandboxWorkspace, "write"],
          ...readOnly.map((bind) => [bind.inside, "read"])
        ]
      : null
})

/** bubblewrap's argv for one run; the seccomp program is read from fd 3. */
export const novaArgv = (options: {
  readonly workspace: string
  readonly command: ReadonlyArray<string>
  readonly timeoutMs: number
  readonly protections: NovaProtections
  readonly probe?: boolean
  readonly readOnly?: ReadonlyArray<ReadOnlyBind>
  /** The host's network (a served process granted `network`); every other namespace stays unshared. */
  readonly network?: boolean
}): ReadonlyArray<string> => [
  "bwrap",
  "--unshare-all",
  ...(options.network === true ? ["--share-net", "--ro-bind-try", "/etc/resolv.conf", "/etc/resolv.conf"] : []),
  "--unshare-user",
  "--disable-userns",
  "--die-with-parent",
  "--new-session",
  "--cap-drop",
  "ALL",
  "--uid",
  "1000",
  "--gid",
  "1000",
  "--hostname",
  "sandbox",
  "--ro-bind",
  "/usr",
  "/usr",
  ...systemRoots(),
  "--ro-bind-try",
  "/etc/ld.so.cache",
  "/etc/ld.so.cache",
  "--ro-bind-try",
  "/etc/localtime",
  "/etc/localtime",
  "--proc",
  "/proc",
  "--dev",
  "/dev",
  "--bind",
  options.workspace,
  sandboxWorkspace,
  ...(options.readOnly ?? []).flatMap((bind) => ["--ro-bind", bind.host, bind.inside]),
  "--chdir",
  sandboxWorkspace,
  ...(options.protections.seccomp ? ["--seccomp", "3"] : []),
  "--",
  python,
  "-I",
  "-S",
  "-c",
  launcherSource,
  JSON.stringify(
    launcherConfig(options.timeoutMs, options.protections, options.probe ?? false, options.readOnly ?? [])
  ),
  ...options.command
]

/**
 * Puts the run into its cgroups before bubblewrap starts: a shell writes its own pid into each
 * group's procs file, then becomes bubblewrap, so nothing of the run is ever outside them.
 */
export const inGroups = (argv: ReadonlyArray<string>, procsFiles: ReadonlyArray<string>): ReadonlyArray<string> =>
  procsFiles.length === 0
    ? argv
    : [
        "/bin/sh",
        "-c",
        'for f in "$@"; do [ "$f" = -- ] && break; echo $$ > "$f" || exit 125; shift; done; shift; exec "$@"',
        "nova",
        ...procsFiles,
        "--",
        ...argv
      ]

export const runNova = async (options: TierRun & { readonly protections: NovaProtections }): Promise<CodeReport> => {
  const groups = createRunGroups(options.protections.cgroups)
  try {
    const argv = novaArgv({ ...options, command: interpreter(options.language, options.code) })
    const result = await spawnRun({
      argv: inGroups(argv, groups.procsFiles),
      env: cleanEnv(sandboxWorkspace),
      timeoutMs: options.timeoutMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.protections.seccomp ? { fd3: seccompProgram() } : {}),
      kill: () => void groups.sweep()
    })
    return { ...result, sandboxed: true, unsandboxed: false, runtime: "nova" }
  } finally {
    await groups.sweep()
  }
}

/**
 * cgroup v1 limits for one nova run, where this machine lets the node write them: a memory
 * ceiling, a process count (what stops a fork bomb: RLIMIT_NPROC does not bind a root-owned
 * process) and one core of CPU. Each run gets its own group under the node's own, created before
 * the run and swept (every process killed, the group removed) after it.
 */
import { randomUUID } from "node:crypto"
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { sandboxLimits } from "./limits.ts"

export const cgroupControllers = ["memory", "pids", "cpu"] as const
export type CgroupController = (typeof cgroupControllers)[number]

const root = "/sys/fs/cgroup"

/** The node's own group in a v1 hierarchy, from /proc/self/cgroup ("4:memory:/some/path"). */
const ownGroup = (controller: CgroupController): string | null => {
  try {
    const line = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((entry) => entry.split(":")[1]?.split(",").includes(controller))
    const path = line?.split(":")[2]
    return path === undefined ? null : join(root, controller, path)
  } catch {
    return null
  }
}

/** Which controllers the node can create groups in: tried, never assumed. */
export const writableControllers = (): ReadonlyArray<CgroupController> =>
  cgroupControllers.filter((controller) => {
    const parent = ownGroup(controller)
    if (parent === null) return false
    const probe = join(parent, `svc-probe-${process.pid}-${randomUUID().slice(0, 8)}`)
    try {
      mkdirSync(probe)
      rmdirSync(probe)
      return true
    } catch {
      return false
    }
  })

const settings: Readonly<Record<CgroupController, ReadonlyArray<readonly [string, string, boolean]>>> = {
  // [file, value, required]: swap accounting may be off, so memsw is a best effort.
  memory: [
    ["memory.limit_in_bytes", String(sandboxLimits.memoryBytes), true],
    ["memory.memsw.limit_in_bytes", String(sandboxLimits.memoryBytes), false]
  ],
  pids: [["pids.max", String(sandboxLimits.processes), true]],
  cpu: [
    ["cpu.cfs_period_us", "100000", true],
    ["cpu.cfs_quota_us", String(100000 * sandboxLimits.cpus), true]
  ]
}

export interface RunGroups {
  /** The `cgroup.procs` files the run's first process writes itself into. */
  readonly procsFiles: ReadonlyArray<string>
  /** Kills whatever is left in the groups and removes them. */
  readonly sweep: () => Promise<void>
}

const pidsIn = (dir: string) =>
  readFileSync(join(dir, "cgroup.procs"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map(Number)

export const createRunGroups = (controllers: ReadonlyArray<CgroupController>): RunGroups => {
  const name = `svc-run-${randomUUID()}`
  const dirs: Array<string> = []
  for (const controller of controllers) {
    const parent = ownGroup(controller)
    if (parent === null) continue
    const dir = join(parent, name)
    try {
      mkdirSync(dir)
      dirs.push(dir)
      for (const [file, value, required] of settings[controller]) {
        try {
          writeFileSync(join(dir, file), value)
        } catch (error) {
          if (required) throw error
        }
      }
    } catch {
      // A controller that refuses now is left out of this run; the rlimits still hold.
    }
  }
  const sweep = async () => {
    for (let round = 0; round < 50 && dirs.length > 0; round++) {
      for (const dir of [...dirs]) {
        try {
          for (const pid of pidsIn(dir)) {
            try {
              process.kill(pid, "SIGKILL")
            } catch {
              // Gone already.
            }
          }
          rmdirSync(dir)
          dirs.splice(dirs.indexOf(dir), 1)
        } catch {
          // Busy while its last processes exit: the next round removes it.
        }
      }
      if (dirs.length > 0) await new Promise((resolve) => setTimeout(resolve, 10))
    }
  }
  return { procsFiles: dirs.map((dir) => join(dir, "cgroup.procs")), sweep }
}

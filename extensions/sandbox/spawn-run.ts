/**
 * One child process run to its end under a wall clock: output kept up to its cap, and at the
 * deadline (or when the caller gives up) the child's whole process group killed, with whatever
 * else the tier must stop (`kill`). Used by nova, docker and the unsandboxed local run alike.
 */
import { spawn } from "node:child_process"
import { constants } from "node:os"
import { timedOutExitCode } from "./limits.ts"
import { cappedText } from "./output.ts"

export interface SpawnRun {
  readonly argv: ReadonlyArray<string>
  readonly env: Readonly<Record<string, string>>
  readonly cwd?: string
  readonly timeoutMs: number
  readonly signal?: AbortSignal
  /** Written to the child's fd 3 and closed (nova's seccomp program). */
  readonly fd3?: Uint8Array
  /** Also called at the deadline (docker's `kill` of its container). */
  readonly kill?: () => void
}

export interface SpawnResult {
  readonly stdout: string
  readonly stderr: string
  readonly exitCode: number
  readonly timedOut: boolean
}

const signalNumber = (signal: NodeJS.Signals) => constants.signals[signal] ?? 9

export const spawnRun = (run: SpawnRun): Promise<SpawnResult> =>
  new Promise((resolve, reject) => {
    const stdout = cappedText()
    const stderr = cappedText()
    const [command, ...args] = run.argv
    const child = spawn(command!, args, {
      env: run.env,
      cwd: run.cwd,
      // Its own process group, so the deadline kills the child and all it started at once.
      detached: true,
      stdio: ["ignore", "pipe", "pipe", ...(run.fd3 === undefined ? [] : ["pipe" as const])]
    })
    let timedOut = false
    const killAll = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
      } catch {
        // Already gone.
      }
      run.kill?.()
    }
    const timer = setTimeout(() => {
      timedOut = true
      killAll()
    }, run.timeoutMs)
    run.signal?.addEventListener("abort", killAll, { once: true })
    if (run.fd3 !== undefined) {
      const pipe = child.stdio[3] as NodeJS.WritableStream
      pipe.on("error", () => {})
      pipe.end(run.fd3)
    }
    child.stdout!.on("data", stdout.push)
    child.stderr!.on("data", stderr.push)
    child.on("error", (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.on("close", (code, signal) => {
      clearTimeout(timer)
      run.signal?.removeEventListener("abort", killAll)
      if (timedOut) stderr.push(`\nStopped: the code ran past its ${run.timeoutMs} ms limit.\n`)
      resolve({
        stdout: stdout.text(),
        stderr: stderr.text(),
        exitCode: timedOut ? timedOutExitCode : (code ?? 128 + signalNumber(signal ?? "SIGKILL")),
        timedOut
      })
    })
  })

/** What any tier's child sees of the node's environment: nothing of it (no keys, no tokens). */
export const cleanEnv = (home: string): Readonly<Record<string, string>> => ({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: home,
  TMPDIR: home,
  LANG: "C.UTF-8",
  PYTHONDONTWRITEBYTECODE: "1"
})

/**
 * The isolate tier: JavaScript in a fresh isolated-vm isolate per run, its own V8 heap with no
 * require, process, files, timers or network, only a `console` whose lines the host keeps. The
 * isolate's own timeout stops counting while it awaits a host promise, so a host-side watchdog
 * disposes of the isolate at the deadline whatever it is doing; a heap past its limit disposes
 * itself. None of the isolate's host functions returns a promise, so none can reject in the host.
 */
import type ivm from "isolated-vm"
import type { CodeReport } from "../../kernel/extensions/process.ts"
import { isolateErrorText as describe } from "../../kernel/extensions/isolate/limits.ts"
import { sandboxLimits, timedOutExitCode } from "./limits.ts"
import { cappedText } from "./output.ts"
import { lazyModule } from "../../kernel/lazy-module.ts"

/** isolated-vm at first use: a node that runs no plugin and no JavaScript sandbox never loads the addon. */
const isolatedVm = lazyModule<typeof ivm>("isolated-vm")

/** Runs inside the isolate before the code: console over the one host function, `$write`. */
const prelude = `
const write = $write; delete globalThis.$write;
const show = (value) => {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.stack ?? String(value);
  try { const json = JSON.stringify(value); return json === undefined ? String(value) : json } catch { return String(value) }
};
const line = (stream) => (...args) => { write(stream, args.map(show).join(" ") + "\\n") };
globalThis.console = Object.freeze({ log: line(1), info: line(1), debug: line(1), warn: line(2), error: line(2) });
`

export const runInIsolate = async (code: string, timeoutMs: number, signal?: AbortSignal): Promise<CodeReport> => {
  const stdout = cappedText()
  const stderr = cappedText()
  const isolate = new (isolatedVm().Isolate)({ memoryLimit: sandboxLimits.isolateMemoryMb })
  let timedOut = false
  const stop = () => {
    if (!isolate.isDisposed) isolate.dispose()
  }
  // The watchdog: the isolate's own timeout does not count time spent waiting on the host.
  const watchdog = setTimeout(() => {
    timedOut = true
    stop()
  }, timeoutMs + sandboxLimits.graceMs)
  signal?.addEventListener("abort", stop, { once: true })
  const report = (exitCode: number): CodeReport => ({
    stdout: stdout.text(),
    stderr: stderr.text(),
    exitCode,
    timedOut,
    sandboxed: true,
    unsandboxed: false,
    runtime: "isolate"
  })
  try {
    const context = await isolate.createContext()
    await context.global.set(
      "$write",
      new (isolatedVm().Callback)((stream: number, text: string) => {
        ;(stream === 2 ? stderr : stdout).push(String(text))
      })
    )
    await context.eval(prelude)
    const script = await isolate.compileScript(code, { filename: "code.js" })
    await script.run(context, { timeout: timeoutMs, promise: true, copy: true })
    return report(0)
  } catch (error) {
    const message = describe(error)
    if (timedOut || /timed out/i.test(message)) {
      timedOut = true
      stderr.push(`Stopped: the code ran past its ${timeoutMs} ms limit.\n`)
      return report(timedOutExitCode)
    }
    if (/memory limit/i.test(message)) {
      stderr.push(`Stopped: the code used more than ${sandboxLimits.isolateMemoryMb} MB of memory.\n`)
      return report(137)
    }
    if (isolate.isDisposed) {
      stderr.push("Stopped: the run was cancelled.\n")
      return report(130)
    }
    stderr.push(`${message}\n`)
    return report(1)
  } finally {
    clearTimeout(watchdog)
    signal?.removeEventListener("abort", stop)
    stop()
  }
}

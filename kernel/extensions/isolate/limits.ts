/**
 * What every isolated-vm isolate of the node may use, and how its faults read: the one place for
 * isolate plumbing that a plugin's long-lived isolate (plugin-isolate.ts) and code.execute's
 * run-once isolate (extensions/sandbox/isolate.ts) share.
 */

export const isolateLimits = {
  /** Heap of one isolate; past it the isolate disposes itself. */
  memoryMb: 128,
  /** Between a call's own time limit and the host-side watchdog's stop. */
  graceMs: 500,
  /** For evaluating a plugin's bundled script (its top-level code) when it loads. */
  loadMs: 5_000,
  /** Adapter calls one plugin may have the host answering at once. */
  pendingHostCalls: 64
} as const

/** Why an isolate stopped, when it did: its time limit, its heap, or a stop from the host. */
export type IsolateFault = "timeout" | "memory" | "disposed"

/** The message as the isolate's code sees it: the host's frames below the boundary are not its business. */
export const isolateErrorText = (error: unknown) => {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error)
  const boundary = text.indexOf("\n    at (<isolated-vm boundary>)")
  return boundary === -1 ? text : text.slice(0, boundary)
}

export const isolateFault = (message: string): IsolateFault | null =>
  /memory limit/i.test(message)
    ? "memory"
    : /timed out/i.test(message)
      ? "timeout"
      : /disposed/i.test(message)
        ? "disposed"
        : null

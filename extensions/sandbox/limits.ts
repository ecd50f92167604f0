/** What every sandboxed run may use, whichever tier runs it. */
export const sandboxLimits = {
  /** Heap of an isolate; memory of a nova or docker run. */
  memoryBytes: 256 * 1024 * 1024,
  isolateMemoryMb: 128,
  /** Processes and threads at once (a fork bomb stops here). */
  processes: 64,
  /** One core's worth of CPU time per wall-clock second. */
  cpus: 1,
  /** Largest file a run may write. */
  fileBytes: 64 * 1024 * 1024,
  /** Of each of stdout and stderr kept; the rest is cut with a note. */
  outputBytes: 1024 * 1024,
  /** Bytes of code as UTF-8: it travels as one argument, which Linux caps at 128 KiB. */
  codeBytes: 120 * 1024,
  /** Between the end of the time limit and the host's own kill. */
  graceMs: 500
} as const

/** The conventional exit code of a run stopped by its time limit (as coreutils' timeout answers). */
export const timedOutExitCode = 124

/**
 * Memory-reducing collections when the node is quiet. Loading the node's ~1,300 modules grows V8's
 * young generation to its ceiling, and a load of requests leaves old space full of garbage and the
 * young generation grown; an idle node never collects (nothing allocates, so nothing asks V8 to),
 * so it kept that memory for good: ~260 MB resident at rest after start, 50–100 MB more after a load
 * (docs/benchmarks.md, "Idle RSS and RSS after the load"). A full collection with memory reduction
 * gives it back; when the node is busy again the heap grows as it needs.
 *
 * So: one collection shortly after start, and then one whenever a second passes with the event loop
 * all but idle while V8's heap has grown by more than GROWN_BYTES since the last. Looking costs two
 * counters a second; the collection, 30–250 ms of the main thread, falls only where nothing waited.
 * It is asked of V8 through an in-process inspector session (node:inspector, the DevTools protocol's
 * `HeapProfiler.collectGarbage`), which needs no flag and opens no port; `--expose-gc` would need a
 * launch flag, and `v8.setFlagsFromString` after start is unsupported.
 */
import { Session } from "node:inspector"
import { performance } from "node:perf_hooks"
import { getHeapStatistics } from "node:v8"

export const SETTLE_AFTER_MS = 1500
/** How often the node looks whether it is quiet with memory to give back. */
const WATCH_EVERY_MS = 1000
/** A second whose event loop was busy for more than this share of it is not quiet. */
const QUIET_UTILIZATION = 0.02
/** How much V8's heap must have grown since the last collection for a quiet second to collect. */
const GROWN_BYTES = 8 * 1024 * 1024

const heapSize = () => getHeapStatistics().total_heap_size

let settledAt = Number.POSITIVE_INFINITY
let collecting = false

const collect = () => {
  if (collecting) return
  collecting = true
  const session = new Session()
  session.connect()
  session.post("HeapProfiler.collectGarbage", () =>
    // Disconnecting inside the protocol's callback hangs the process (Node 24): leave it first.
    setImmediate(() => {
      session.disconnect()
      collecting = false
      settledAt = heapSize()
    })
  )
}

let watching = false
const watchForQuiet = () => {
  if (watching) return
  watching = true
  let last = performance.eventLoopUtilization()
  setInterval(() => {
    const now = performance.eventLoopUtilization()
    const quiet = performance.eventLoopUtilization(now, last).utilization < QUIET_UTILIZATION
    last = now
    if (quiet && heapSize() - settledAt > GROWN_BYTES) collect()
  }, WATCH_EVERY_MS).unref()
}

/** The collection after start (a relaunch in place asks again), then the watch for quiet seconds. */
export const settleHeapSoon = (delayMs: number = SETTLE_AFTER_MS): void => {
  setTimeout(() => {
    collect()
    watchForQuiet()
  }, delayMs).unref()
}

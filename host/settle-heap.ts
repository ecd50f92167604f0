/**
 * Memory-reducing collections when the node is at rest. Loading the node's ~1,300 modules grows V8's
 * young generation to its ceiling, and a load of requests leaves old space full of garbage and the
 * young generation grown; an idle node never collects (nothing allocates, so nothing asks V8 to), so
 * it kept that memory for good: ~260 MB resident at rest after start, 90–100 MB more after a load
 * (docs/benchmarks.md, "Idle RSS and RSS after the load"). A full collection with memory reduction
 * gives it back.
 *
 * It has a price: after it, V8 sets its heap's limits tight, and the next burst of work collects
 * often until they have grown again (measured: 40 % more CPU a request over the two seconds of load
 * after each collection). So: one collection shortly after start, and then one only once the node has
 * been at rest for QUIET_SECONDS (each second's event loop busy under 5 %) with V8's heap grown by more
 * than GROWN_BYTES since the last. A node in use, its bursts seconds apart, never pays it; a node left
 * alone for a quarter of a minute gives its memory back, and its next request pays once. Looking costs two
 * counters a second. The collection is asked of V8 through an in-process inspector session
 * (node:inspector, the DevTools protocol's `HeapProfiler.collectGarbage`), which needs no flag and
 * opens no port; `--expose-gc` would need a launch flag (measured: the same cost after it).
 */
import { Session } from "node:inspector"
import { performance } from "node:perf_hooks"
import { getHeapStatistics } from "node:v8"

export const SETTLE_AFTER_MS = 1500
/** How often the node looks whether it is quiet with memory to give back. */
const WATCH_EVERY_MS = 1000
/** A second whose event loop was busy for more than this share of it is not quiet. */
const QUIET_UTILIZATION = 0.05
/** How many quiet seconds in a row make the node at rest. */
export const QUIET_SECONDS = 15
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
  let quietSeconds = 0
  setInterval(() => {
    const now = performance.eventLoopUtilization()
    quietSeconds = performance.eventLoopUtilization(now, last).utilization < QUIET_UTILIZATION ? quietSeconds + 1 : 0
    last = now
    if (quietSeconds >= QUIET_SECONDS && heapSize() - settledAt > GROWN_BYTES) collect()
  }, WATCH_EVERY_MS).unref()
}

/** The collection after start (a relaunch in place asks again), then the watch for quiet seconds. */
export const settleHeapSoon = (delayMs: number = SETTLE_AFTER_MS): void => {
  setTimeout(() => {
    collect()
    watchForQuiet()
  }, delayMs).unref()
}

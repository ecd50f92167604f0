/**
 * One memory-reducing collection shortly after start. Loading the node's ~1,300 modules grows
 * V8's young generation to its 128 MB ceiling (about 90 MB of it resident), and an idle node
 * never collects, so it kept that memory for good: ~260 MB resident at rest. A full collection
 * with memory reduction shrinks the young generation back to 1 MB (~150 MB less resident); under
 * load it grows again as it needs. The collection is asked of V8 through an in-process inspector
 * session (node:inspector, the DevTools protocol's `HeapProfiler.collectGarbage`), which needs
 * no flag and opens no port; `--expose-gc` would need a launch flag, and `v8.setFlagsFromString`
 * after start is unsupported. It costs 150–250 ms of the main thread, once.
 */
import { Session } from "node:inspector"

export const SETTLE_AFTER_MS = 1500

export const settleHeapSoon = (delayMs: number = SETTLE_AFTER_MS): void => {
  setTimeout(() => {
    const session = new Session()
    session.connect()
    // Disconnecting inside the protocol's callback hangs the process (Node 24): leave it first.
    session.post("HeapProfiler.collectGarbage", () => setImmediate(() => session.disconnect()))
  }, delayMs).unref()
}

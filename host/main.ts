/**
 * `npm start`: the node on its embedded defaults (SQLite under data/). V8's compiled code of
 * the node's ~1,000 modules is kept between starts (Node's compile cache, in the system's temp
 * folder), which takes a few hundred milliseconds off every start after the first.
 * (`--optimize-for-size` was measured: an idle node 40 MB smaller, but every request twice the
 * CPU; docs/benchmarks.md.)
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
await import("./start.ts")

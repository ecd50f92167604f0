/**
 * `npm start`: the web app built if its sources changed (ui/build.ts), then the node on its
 * embedded defaults (SQLite under data/). V8's compiled code of the node's ~1,000 modules is
 * kept between starts (Node's compile cache, in the system's temp folder), which takes a few
 * hundred milliseconds off every start after the first; it must be on before they load, hence
 * the dynamic imports. While they load, bare specifiers' resolutions are cached
 * (./resolve-cache.ts: another 200 ms or so). (`--optimize-for-size` was measured: an idle
 * node 40 MB smaller, but every request twice the CPU; docs/benchmarks.md.)
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
const { cacheBareResolutions } = await import("./resolve-cache.ts")
const resolutions = cacheBareResolutions()
const { ensureUiBuild } = await import("../ui/build.ts")
// A build (esbuild's own process, compression on the thread pool) runs while the node's modules load.
const building = ensureUiBuild().then((ui) => console.log(ui.line))
const [{ start }] = await Promise.all([import("./start.ts"), building])
resolutions.deregister()
start()

/**
 * `npm start`: the web app built if its sources changed (ui/build.ts), the node's modules bundled if theirs did
 * (./server-bundle.ts), then the node on its embedded defaults (SQLite under data/). V8's compiled code is kept between
 * starts (Node's compile cache, in the system's temp folder), which takes a few hundred milliseconds off every start
 * after the first; it must be on before the bundle loads, hence the dynamic imports. (`--optimize-for-size` was
 * measured: an idle node 40 MB smaller, but every request twice the CPU; docs/benchmarks.md.)
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
const [{ ensureUiBuild }, { ensureServerBundle }] = await Promise.all([
  import("../ui/build.ts"),
  import("./server-bundle.ts")
])
const [ui, server] = await Promise.all([ensureUiBuild(), ensureServerBundle()])
console.log(ui.line)
if (server.built) console.log(server.line)
const { start } = (await import(server.url)) as typeof import("./start.ts")
start()

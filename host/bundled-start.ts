/**
 * `node host/bundled-start.ts`: the node loaded from its bundle (./server-bundle.ts), bundled first if a source
 * changed. host/main.ts runs it after the web app's build check; a runner of `npm run cluster:local` and the tests'
 * child nodes run it alone, since whoever started them checked the web app once.
 *
 * Once the bundle is current this process becomes `node <bundle>/serve.mjs` (`process.execve`: the same process id,
 * flags, environment and standard streams), so the running node holds no TypeScript: Node strips a `.ts` file's types
 * with a WebAssembly compiler that stays resident, 18 MB of an idle node (docs/benchmarks.md, "Idle RSS"). V8's compiled
 * code of the bundle is kept between starts (Node's compile cache, in the system's temp folder, turned on through
 * NODE_COMPILE_CACHE before the bundle loads): a few hundred milliseconds off every start after the first.
 */
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ensureServerBundle } from "./server-bundle.ts"

const server = await ensureServerBundle()
if (server.built) console.log(server.line)
// Where `module.enableCompileCache()` keeps it by default, so both ways share one cache.
const compileCache = join(tmpdir(), "node-compile-cache")
if (typeof process.execve === "function") {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, server.serve], {
    ...process.env,
    NODE_COMPILE_CACHE: compileCache
  })
}
// Where a process cannot be replaced (Windows), the node runs in this one.
const { enableCompileCache } = await import("node:module")
enableCompileCache(compileCache)
const { start } = (await import(server.url)) as typeof import("./start.ts")
start()

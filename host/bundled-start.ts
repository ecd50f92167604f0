/**
 * `node host/bundled-start.ts`: the node loaded from its bundle (./server-bundle.ts), bundled first if a source
 * changed. host/main.ts runs it after the web app's build check; a runner of `npm run cluster:local` and the tests'
 * child nodes run it alone, since whoever started them checked the web app once. V8's compiled code of the bundle is
 * kept between starts (Node's compile cache, in the system's temp folder): a few hundred milliseconds off every start
 * after the first. It must be on before the bundle loads, hence the dynamic imports.
 */
import { enableCompileCache } from "node:module"

enableCompileCache()
const { ensureServerBundle } = await import("./server-bundle.ts")
const server = await ensureServerBundle()
if (server.built) console.log(server.line)
const { start } = (await import(server.url)) as typeof import("./start.ts")
start()

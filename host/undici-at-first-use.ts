/**
 * What the node's bundle (./server-bundle.ts) gives a module that imports `undici`: undici evaluated at its first use.
 * @effect/platform-node's server module imports its HTTP client, which imports undici, and evaluating undici cost an
 * idle node 29 MB. The client calls two of its names, inside functions; a name more fails the bundle's build, not a
 * start.
 *
 * Bundled only (inside the bundle `require` is the bundle's own, and esbuild bundles the undici it names); nothing
 * imports this file directly.
 */
import type * as Undici from "undici"

let loaded: typeof Undici | undefined
const undici = (): typeof Undici => {
  loaded ??= require("undici") as typeof Undici
  return loaded
}

export class Agent {
  constructor(options?: Undici.Agent.Options) {
    // biome-ignore lint/correctness/noConstructorReturn: the stand-in answers undici's own Agent, made at first use
    return new (undici().Agent)(options)
  }
}

export const getGlobalDispatcher = () => undici().getGlobalDispatcher()

export default {
  get Agent() {
    return undici().Agent
  }
}

/**
 * What the node's bundle (./server-bundle.ts) gives a module that imports `node:http`: the built-in through `require`,
 * not `import`. An ES module's import of a built-in reads every export, and node:http's `WebSocket` and `MessageEvent`
 * are getters that load Node's own HTTP client (undici), 12 MB of an idle node that never uses it (docs/benchmarks.md,
 * "Idle RSS"). As this CommonJS module's exports, the names are read only where used.
 *
 * Bundled only (inside the bundle `require` is the bundle's own); nothing imports this file directly.
 */
module.exports = require("node:http")

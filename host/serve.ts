/**
 * The bundle's own entry: ./bundled-start.ts replaces its process with `node <bundle>/serve.mjs` once the bundle is
 * current, so the running node carries none of what only the check needed. The check is TypeScript, and Node strips
 * its types with a WebAssembly compiler (amaro) that stays resident once loaded: measured, 18 MB of an idle node's
 * RSS (docs/benchmarks.md, "Idle RSS").
 */
// NODE_COMPILE_CACHE turned V8's compile cache on before this module loaded; the programs the node starts (sandboxes,
// stdio plugin servers) are not to inherit it. Hence first, and the node through an import() that runs after it.
delete process.env.NODE_COMPILE_CACHE
const { start } = await import("./start.ts")
start()

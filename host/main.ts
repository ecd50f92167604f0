/**
 * `npm start`: the web app built if its sources changed (ui/build.ts), then the node from its bundle, bundled if its
 * sources changed (./bundled-start.ts), on its embedded defaults (SQLite under data/). (`--optimize-for-size` was
 * measured: an idle node 40 MB smaller, but every request twice the CPU; docs/benchmarks.md.)
 */
const { ensureUiBuild } = await import("../ui/build.ts")
console.log((await ensureUiBuild()).line)
await import("./bundled-start.ts")

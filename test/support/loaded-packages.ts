/**
 * Test-only preload (`node --import ./test/support/loaded-packages.ts ...`): keeps the name of every package the
 * process loads from node_modules, by `import` or `require` (Node's module hooks see both), and on SIGUSR2 writes them
 * to stderr as one line, `loaded-packages <json>`, with whether Node's own HTTP client (undici) was loaded.
 */
import { registerHooks } from "node:module"

const packages = new Set<string>()

registerHooks({
  resolve: (specifier, context, nextResolve) => {
    const resolved = nextResolve(specifier, context)
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(resolved.url)
    if (match !== null) packages.add(match[1]!)
    return resolved
  }
})

process.on("SIGUSR2", () => {
  // Node's list of its own modules loaded so far (undocumented, and the one place that says).
  const builtins = (process as unknown as { moduleLoadList: ReadonlyArray<string> }).moduleLoadList
  const nodeHttpClient = builtins.some((name) => name.includes("internal/deps/undici"))
  process.stderr.write(`loaded-packages ${JSON.stringify({ packages: [...packages].sort(), nodeHttpClient })}\n`)
})

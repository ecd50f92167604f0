/**
 * Remembers where bare specifiers resolved while the node's modules load at start.
 *
 * Why: Node resolves every `import "effect/Schema"` anew, and each time it parses the imported
 * package's whole `exports` map again (its package.json reader keeps the text, not the parsed
 * map). effect's map is about 40 KB of JSON and the node's ~1,000 modules make about 1,300 bare
 * imports: measured, 200–250 ms of CPU at every start (docs/benchmarks.md).
 *
 * Why the key is exact: a bare specifier resolves through the `node_modules` folders above the
 * importing file and through the importing package's own name and `imports`; every file of one
 * package shares those. So the key is the specifier, the importing package's folder (the path up
 * to its last `node_modules/<name>`; for this repository's own files, the repository, which
 * holds no `node_modules` but its root one) and the resolution's conditions.
 * Registered only for the start's imports (host/main.ts deregisters it after): module hooks are
 * still an experimental API of Node 24.
 */
import { registerHooks, type ModuleHooks } from "node:module"

const repoUrl = new URL("..", import.meta.url).href

/** The folder whose files all resolve a bare specifier alike, or null when unsure. */
const packageScope = (parentUrl: string): string | null => {
  const inModules = parentUrl.lastIndexOf("/node_modules/")
  if (inModules >= 0) {
    const start = inModules + "/node_modules/".length
    const parts = parentUrl.slice(start).split("/")
    const name = parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]
    return parentUrl.slice(0, start) + name
  }
  return parentUrl.startsWith(repoUrl) ? repoUrl : null
}

const isBare = (specifier: string) =>
  !specifier.startsWith(".") && !specifier.startsWith("/") && !specifier.includes(":")

export const cacheBareResolutions = (): ModuleHooks => {
  const resolved = new Map<string, { readonly url: string; readonly format?: string | null | undefined }>()
  return registerHooks({
    resolve: (specifier, context, nextResolve) => {
      const scope = context.parentURL === undefined || !isBare(specifier) ? null : packageScope(context.parentURL)
      if (scope === null || Object.keys(context.importAttributes ?? {}).length > 0)
        return nextResolve(specifier, context)
      const key = `${specifier}\0${scope}\0${context.conditions.join(",")}`
      const known = resolved.get(key)
      if (known !== undefined) return { ...known, shortCircuit: true }
      const answer = nextResolve(specifier, context)
      resolved.set(key, { url: answer.url, format: answer.format })
      return answer
    }
  })
}

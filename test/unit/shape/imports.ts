/**
 * The project's own import graph, read from the sources as text: every relative `import`,
 * `export … from` and `import("…")` of each .ts file under the source folders, resolved to a
 * path from the repository's root. Package imports are kept by name.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, posix, relative } from "node:path"
import { fileURLToPath } from "node:url"

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

export const sourceFolders = ["kernel", "actors", "extensions", "host", "ui", "seeds"] as const

export interface Import {
  /** A repository path (`host/node.ts`) or a package specifier (`effect/Schema`). */
  readonly target: string
  readonly local: boolean
  /** `import type` and `export type`: erased before the code runs. */
  readonly typeOnly: boolean
}

const listTs = (dir: string): Array<string> =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "dist" || entry.name === "node_modules" ? [] : listTs(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

export const sourceFiles = (): Array<string> => sourceFolders.flatMap((folder) => listTs(folder))

/** Every .ts file of the tests: test files, their support modules, fixtures and benchmarks. */
export const testFiles = (): Array<string> => listTs("test")

const importPattern =
  /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s*)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g

export const importsOf = (file: string): Array<Import> => {
  const text = readFileSync(join(repoRoot, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
  const found: Array<Import> = []
  for (const match of text.matchAll(importPattern)) {
    const specifier = match[2] ?? match[3]
    const typeOnly = match[1] !== undefined
    if (specifier.startsWith(".")) {
      found.push({ target: posix.normalize(posix.join(posix.dirname(file), specifier)), local: true, typeOnly })
    } else {
      found.push({ target: specifier, local: false, typeOnly })
    }
  }
  return found
}

/** A contract module: any file under a `contract/` folder (docs/architecture.md). */
export const isContract = (path: string): boolean => path.split("/").includes("contract")

export const relativeToRoot = (absolute: string): string => relative(repoRoot, absolute).split("\\").join("/")

/**
 * The layering of docs/architecture.md as rules over the import graph (imports.ts): what each
 * layer may import, and the crossings found now (none may be). Run as a
 * script (`node test/unit/shape/layers.ts`), it prints the crossings found, one a line.
 */
import { importsOf, isContract, sourceFiles, type Import } from "./imports.ts"

const portablePackage = (specifier: string): boolean =>
  specifier === "effect" || specifier.startsWith("effect/") || specifier.startsWith("@effect/platform/")

/** The folder a file belongs to for the rules: `actors/project`, `extensions/files`, `host`, … */
const home = (path: string): string => {
  const [top, second] = path.split("/")
  return top === "actors" || top === "extensions" ? `${top}/${second}` : top
}

const allowed = (from: string, to: Import): boolean => {
  // Only the host's own files and the web app read host/ (its contract composes the events' union).
  if (to.local && to.target.startsWith("host/") && !from.startsWith("host/") && !from.startsWith("ui/")) return false
  if (isContract(from)) return to.local ? isContract(to.target) : portablePackage(to.target)
  if (!to.local)
    return !(from.startsWith("ui/") && (to.target.startsWith("node:") || to.target.includes("platform-node")))
  const target = to.target
  switch (from.split("/")[0]) {
    case "kernel":
      return target.startsWith("kernel/")
    case "seeds":
      return target.startsWith("seeds/") || isContract(target)
    case "actors":
    case "extensions":
      return (
        target.startsWith("kernel/") || target.startsWith("seeds/") || isContract(target) || home(target) === home(from)
      )
    case "host":
      // npm start builds the web app when its sources changed.
      return (!target.startsWith("ui/") || isBuildScript(target)) && !target.startsWith("test/")
    case "ui":
      return target.startsWith("ui/") || isContract(target)
    default:
      return false
  }
}

/** The web app's build (ui/build.ts, ui/build-stamp.ts) runs on the server, before the browser sees anything. */
const isBuildScript = (path: string): boolean => /^ui\/build[^/]*\.ts$/.test(path)

export const graph = (): Map<string, Array<Import>> =>
  new Map(
    sourceFiles()
      .filter((file) => !isBuildScript(file))
      .map((file) => [file, importsOf(file)])
  )

/** Every import that crosses what its layer may import, as `from -> target`. */
export const crossings = (edges: Map<string, Array<Import>>): Array<string> =>
  [...edges].flatMap(([from, imports]) =>
    imports.filter((to) => !allowed(from, to)).map((to) => `${from} -> ${to.target}`)
  )

if (import.meta.main) console.log(crossings(graph()).sort().join("\n"))

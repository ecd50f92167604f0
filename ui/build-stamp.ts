/**
 * The build stamp: a content hash of everything the web app's build is made from, kept in the
 * build's folder (ui/dist/build-stamp.json) and written last, so a build cut off half-way has
 * none. `npm start` reuses a build whose stamp still matches the sources and rebuilds otherwise.
 *
 * What is hashed: every file under ui/ (the build's own folder excepted; build.ts itself
 * included, so a change of build options rebuilds), the files outside ui/ the last bundle read
 * (the contract modules under host/, kernel/, studio/ …, listed by esbuild's metafile), and
 * package-lock.json for everything under node_modules. A file that the last build did not read
 * can only come into the bundle through a change to one it did read, so the list is enough.
 * Only Node built-ins are imported: the check runs on every start and must stay cheap.
 */
import { createHash } from "node:crypto"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"

export const uiDir = fileURLToPath(new URL(".", import.meta.url))
export const repoRoot = join(uiDir, "..")
export const distDir = join(uiDir, "dist")

const stampName = "build-stamp.json"

export interface BuildStamp {
  readonly hash: string
  /** Repository-relative files outside ui/ that the bundle read, package-lock.json included. */
  readonly inputs: ReadonlyArray<string>
  /** The build's files, relative to its folder; a build with one missing is rebuilt. */
  readonly files: ReadonlyArray<string>
  /** The entry's file and stylesheet, relative to the build's folder. */
  readonly entry: string
  readonly stylesheet: string
  /** Each place folder (`desktop`, `studio`, …) and its chunk, relative to the build's folder. */
  readonly places: Readonly<Record<string, string>>
}

const toPosix = (path: string) => path.split(sep).join("/")

/** Every file under ui/ except those in `outDir` (when it lies inside ui/) and in the default build folder. */
const uiSources = (outDir: string): Array<string> => {
  const skipped = [distDir, outDir].map((dir) => `${toPosix(relative(repoRoot, dir))}/`)
  return readdirSync(uiDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => toPosix(relative(repoRoot, join(entry.parentPath, entry.name))))
    .filter((path) => !skipped.some((dir) => path.startsWith(dir)))
}

/** The files a stamp covers: ui/'s sources and `inputs`, sorted, each once. */
export const stampedFiles = (outDir: string, inputs: ReadonlyArray<string>): Array<string> =>
  [...new Set([...uiSources(outDir), ...inputs, "package-lock.json"])].sort()

/** The hash of the files' paths (relative to `root`) and contents, or null when one is gone. */
export const hashFiles = (files: ReadonlyArray<string>, root: string = repoRoot): string | null => {
  const hash = createHash("sha256")
  for (const file of files) {
    const path = join(root, file)
    if (!existsSync(path)) return null
    hash.update(file).update("\0").update(readFileSync(path)).update("\0")
  }
  return hash.digest("hex")
}

export const readStamp = (outDir: string): BuildStamp | null => {
  try {
    return JSON.parse(readFileSync(join(outDir, stampName), "utf8")) as BuildStamp
  } catch {
    return null
  }
}

export const writeStamp = (outDir: string, stamp: BuildStamp): void =>
  writeFileSync(join(outDir, stampName), `${JSON.stringify(stamp, null, 2)}\n`)

/** Whether the build in `outDir` is complete and was made from the sources as they are now. */
export const isBuildCurrent = (outDir: string): boolean => {
  const stamp = readStamp(outDir)
  if (stamp === null || !Array.isArray(stamp.inputs) || !Array.isArray(stamp.files)) return false
  if (!stamp.files.every((file) => existsSync(join(outDir, file)))) return false
  return hashFiles(stampedFiles(outDir, stamp.inputs)) === stamp.hash
}

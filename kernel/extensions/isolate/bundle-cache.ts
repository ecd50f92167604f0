/**
 * A plugin's bundle kept between boots, so a node with plugins installed starts without
 * bundling each again (bundling effect is most of an isolate's cold start: docs/benchmarks.md).
 * The cache names every file that went in with its lstat (inode, size, mtime); a bundle is reused
 * only while every one is unchanged, and not a symlink where a file was. Anything else, a cache
 * missing or unreadable included, bundles afresh and rewrites it.
 */
import { lstat, mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname } from "node:path"
import { bundlePlugin } from "./bundle.ts"

/** Raised when what the cache holds changes shape, so an older cache is never read as this one. */
const cacheVersion = 1

interface Stamped {
  readonly path: string
  readonly stamp: string
}

interface CachedBundle {
  readonly version: number
  readonly main: string
  readonly inputs: ReadonlyArray<Stamped>
  readonly code: string
}

const stampOf = async (path: string) => {
  const info = await lstat(path)
  return info.isFile() ? `${info.ino}:${info.size}:${info.mtimeMs}` : "not a file"
}

const stillFresh = async (cached: CachedBundle, main: string) => {
  if (cached.version !== cacheVersion || cached.main !== main) return false
  const stamps = await Promise.all(cached.inputs.map((input) => stampOf(input.path).catch(() => "gone")))
  return stamps.every((stamp, index) => stamp === cached.inputs[index]!.stamp)
}

export const cachedBundle = async (dir: string, main: string, cacheFile: string): Promise<string> => {
  const cached = await readFile(cacheFile, "utf8")
    .then((text) => JSON.parse(text) as CachedBundle)
    .catch(() => null)
  if (cached !== null && (await stillFresh(cached, main).catch(() => false))) return cached.code
  const bundle = await bundlePlugin(dir, main)
  const inputs = await Promise.all(bundle.inputs.map(async (path) => ({ path, stamp: await stampOf(path) })))
  const entry: CachedBundle = { version: cacheVersion, main, inputs, code: bundle.code }
  // Written aside and renamed, so a boot that stops midway never leaves half a cache.
  await mkdir(dirname(cacheFile), { recursive: true })
  await writeFile(`${cacheFile}.tmp`, JSON.stringify(entry))
  await rename(`${cacheFile}.tmp`, cacheFile)
  return bundle.code
}

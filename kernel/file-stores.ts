/**
 * Where the node keeps files, by what they are (docs/operations.md "Scale-out: what lives where").
 * Shared content (uploads, project workspaces, plugins' data) lives under FILES_DIR, which every
 * process of a cluster points at one shared folder; DATA_DIR keeps only what one process keeps
 * to itself (the SQLite database, caches). Every store's root is resolved here, so no feature
 * joins a data-dir path of its own.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { cp, mkdir, rename, rm, stat } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import { Settings, type SettingsShape } from "./settings.ts"
import { fnNamed } from "./spans.ts"

/** The folders under FILES_DIR, each a feature's: what another process may have to read. */
export type FileStore =
  /** `uploads/<beingId>`: a being's uploads, the root of its skills outside a project. */
  | "uploads"
  /** Uploads being received, renamed into `uploads` once whole: on the same file system as it. */
  | "upload-staging"
  /** `projects/<projectId>/workspace`: a project's workspace and outputs. */
  | "projects"
  /** `plugin-data/<namespace>`: a third-party plugin's own folder (its `filesystem` capability). */
  | "plugin-data"

export const fileStores: ReadonlyArray<FileStore> = ["uploads", "upload-staging", "projects", "plugin-data"]

/** The two settings a store's place depends on. */
export type FileStoreSettings = Pick<SettingsShape, "dataDir" | "filesDir">

/** FILES_DIR as an absolute path: the setting, else `<DATA_DIR>/files`. */
export const filesDirOf = (settings: FileStoreSettings): string =>
  resolve(Option.getOrElse(settings.filesDir, () => join(settings.dataDir, "files")))

/** The absolute root of one store. */
export const fileStoreRoot = (settings: FileStoreSettings, store: FileStore): string =>
  join(filesDirOf(settings), store)

/** Per-process: plugins' bundles kept between boots, stamped with inodes this machine's disk gave them. */
export const pluginBundleCacheDir = (dataDir: string): string => join(resolve(dataDir), "plugin-bundles")

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false
  )

/**
 * A rename, or across file systems (FILES_DIR on a network share) a copy beside the target, renamed into place, then
 * the old removed.
 */
const move = async (from: string, to: string) => {
  await mkdir(dirname(to), { recursive: true })
  try {
    await rename(from, to)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error
    const aside = `${to}.moving-${process.pid}`
    await rm(aside, { recursive: true, force: true })
    await cp(from, aside, { recursive: true, preserveTimestamps: true, verbatimSymlinks: true })
    await rename(aside, to)
    await rm(from, { recursive: true, force: true })
  }
}

/**
 * Before any feature touches a file: a node whose files sit where they did before FILES_DIR
 * (`<DATA_DIR>/uploads`, ...) gets each store moved to its place under FILES_DIR, when it is not
 * there yet, with one line in the log. The bundle cache, once inside `plugin-data/.bundles`,
 * stays in the data folder as a per-process cache of its own.
 */
export const moveOldFileStores = fnNamed("files.moveOldStores")(function* (settings: FileStoreSettings) {
  const data = resolve(settings.dataDir)
  const oldCache = join(data, "plugin-data", ".bundles")
  if (
    (yield* Effect.promise(() => exists(oldCache))) &&
    !(yield* Effect.promise(() => exists(pluginBundleCacheDir(data))))
  ) {
    yield* Effect.promise(() => rename(oldCache, pluginBundleCacheDir(data)))
  }
  const moved: Array<FileStore> = []
  for (const store of fileStores) {
    const from = join(data, store)
    const to = fileStoreRoot(settings, store)
    if (from === to || !(yield* Effect.promise(() => exists(from))) || (yield* Effect.promise(() => exists(to))))
      continue
    yield* Effect.promise(() => move(from, to))
    moved.push(store)
  }
  if (moved.length > 0)
    yield* Effect.log(`Moved ${moved.join(", ")} from the data folder to FILES_DIR (${filesDirOf(settings)}).`)
})

/** The move above as a layer the node builds before its features. */
export const fileStoresLayer = Layer.effectDiscard(Effect.flatMap(Settings, moveOldFileStores))

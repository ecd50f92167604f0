/**
 * The `filesystem` capability's adapter for a third-party plugin: its own data folder and nothing
 * else (`<FILES_DIR>/plugin-data/<namespace>/`), confined as a skill's file root is (file-root.ts:
 * no `..`, no absolute path, no symlink out, only regular files and folders). A built-in's skills
 * use the call's file root instead (`files` in their run context), so built-ins get no adapter.
 * Uninstalling the plugin deletes the folder with it.
 */
import type * as Effect from "effect/Effect"
import { lstat, readdir, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileStoreRoot, pluginBundleCacheDir, type FileStoreSettings } from "../file-stores.ts"
import { type CapabilityRefused, refusedUnlessResolved } from "./capability-refused.ts"
import { confinedFolder, describeFileError, FileRootError, openRegularFile, type WriteResult } from "./file-root.ts"

/** The largest file a plugin reads or writes through the adapter at once. */
export const pluginFileBytes = 16 * 1024 * 1024

export interface PluginFileEntry {
  readonly name: string
  readonly kind: "file" | "folder"
}

export interface FilesystemAdapter {
  /** The file's text (UTF-8); refused saying why (missing, a folder, too large). */
  readonly read: (path: string) => Effect.Effect<string, CapabilityRefused>
  /** Writes text or bytes, creating parent folders; appends when asked. */
  readonly write: (
    path: string,
    data: string | Uint8Array,
    options?: { readonly append?: boolean }
  ) => Effect.Effect<WriteResult, CapabilityRefused>
  /** A folder's entries ('' is the data folder itself); empty when it does not exist yet. */
  readonly list: (path?: string) => Effect.Effect<ReadonlyArray<PluginFileEntry>, CapabilityRefused>
  /** Deletes a file or folder; false when there was nothing there. */
  readonly remove: (path: string) => Effect.Effect<boolean, CapabilityRefused>
}

export const pluginDataDir = (settings: FileStoreSettings, namespace: string) =>
  join(fileStoreRoot(settings, "plugin-data"), namespace)

/** Where a plugin's bundle is kept between boots: a cache of this process's, in its data folder. */
export const pluginBundleCache = (dataDir: string, namespace: string) =>
  join(pluginBundleCacheDir(dataDir), `${namespace}.json`)

const tooLarge = (path: string) => new FileRootError(`${path} is larger than ${pluginFileBytes / (1024 * 1024)} MB.`)

export const pluginFilesAdapter = (dir: string): FilesystemAdapter => {
  const folder = confinedFolder(dir)
  // The folder's work is node:fs promises; each operation is one such step, refused with its error's words.
  return {
    read: (path) =>
      refusedUnlessResolved(async () => {
        const target = await folder.resolve(path)
        try {
          const handle = await openRegularFile(target.absolute, target.path)
          try {
            if ((await handle.stat()).size > pluginFileBytes) throw tooLarge(target.path)
            return await handle.readFile("utf8")
          } finally {
            await handle.close()
          }
        } catch (error) {
          throw describeFileError(error, target.path)
        }
      }),
    write: (path, data, options) =>
      refusedUnlessResolved(() => {
        const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data
        if (bytes.byteLength > pluginFileBytes) return Promise.reject(tooLarge(path))
        return folder.write(path, bytes, options)
      }),
    list: (path = "") =>
      refusedUnlessResolved(async () => {
        const target = await folder.resolve(path)
        const entries = await readdir(target.absolute, { withFileTypes: true }).catch((error) => {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") return []
          throw describeFileError(error, target.path)
        })
        return entries.flatMap(
          (entry): Array<PluginFileEntry> =>
            entry.isFile()
              ? [{ name: entry.name, kind: "file" as const }]
              : entry.isDirectory()
                ? [{ name: entry.name, kind: "folder" as const }]
                : []
        )
      }),
    remove: (path) =>
      refusedUnlessResolved(async () => {
        const target = await folder.resolve(path)
        if (target.path === "") throw new FileRootError("Name what to remove; the data folder itself stays.")
        const existed = await lstat(target.absolute).then(
          () => true,
          () => false
        )
        await rm(target.absolute, { recursive: true, force: true })
        return existed
      })
  }
}

/** Binds the adapter for third-party plugins only; `builtinIds` get none. */
export const pluginFilesAdapterFactory =
  (settings: FileStoreSettings, builtinIds: ReadonlySet<string>) =>
  (plugin: { readonly id: string; readonly namespace: string }): FilesystemAdapter | undefined =>
    builtinIds.has(plugin.id) ? undefined : pluginFilesAdapter(pluginDataDir(settings, plugin.namespace))

/**
 * The plugin folder on disk, as the extension host touches it: a request's folder, held inside the
 * plugin folder (a symlink out of it is refused too, since uninstall deletes the folder and the
 * plugin's code is bundled from it), the folders it lists as available, and removing one. Apart
 * from the host because these are file-system rules, not the host's bookkeeping.
 */
import * as Effect from "effect/Effect"
import { readdir, realpath, rm, stat } from "node:fs/promises"
import { isAbsolute, relative, resolve, sep } from "node:path"
import { OutsidePluginDir } from "../contract/plugin-errors.ts"

/** `dir` under `pluginRoot` (an absolute path), with its path from the plugin folder in forward slashes. */
export const pluginFolder = (pluginRoot: string, dir: string) =>
  Effect.gen(function* () {
    const absolute = resolve(pluginRoot, dir)
    const outside = (path: string, root: string) => {
      const inside = relative(root, path)
      return inside === "" || inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside)
    }
    const real = yield* Effect.promise(() => Promise.all([realpath(absolute), realpath(pluginRoot)]).catch(() => null))
    if (outside(absolute, pluginRoot) || (real !== null && outside(real[0], real[1]))) {
      return yield* Effect.fail(
        new OutsidePluginDir({
          message: `"${dir}" is not a folder inside the plugin folder.`,
          details: { dir }
        })
      )
    }
    return { dir: relative(pluginRoot, absolute).split(sep).join("/"), absolute }
  })

/** The folders directly under the plugin folder, hidden ones left out; none when it cannot be read. */
export const pluginFolderNames = (pluginRoot: string) =>
  Effect.promise(() =>
    readdir(pluginRoot, { withFileTypes: true }).then(
      (entries) =>
        entries.filter((entry) => entry.isDirectory() && !entry.name.startsWith(".")).map((entry) => entry.name),
      () => []
    )
  )

/** Removes a folder and everything in it; answers whether it is gone. */
export const removeFolder = (absolute: string) =>
  Effect.promise(async () => {
    await rm(absolute, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined)
    return stat(absolute).then(
      () => false,
      () => true
    )
  })

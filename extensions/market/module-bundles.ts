/**
 * A module listing's goods: a module bundle (a plugin folder whose manifest declares at least one
 * `module` extension) in the seller's own files, and its delivery into the node's plugin folder.
 * The bundle is read without running any of it: the manifest by the node's own reader
 * (kernel/extensions/read-manifest.ts), the files walked as the file root walks them (regular
 * files and folders inside the root; dotfiles and build noise left behind), bounded in count and
 * size. Delivery copies it into a hidden staging folder (the plugin listing skips dot folders),
 * then renames that to the manifest's namespace: one folder per namespace, the same one a second
 * install would clash on, so a namespace already there refuses the buy before money moves.
 */
import * as Effect from "effect/Effect"
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises"
import { dirname, join, resolve } from "node:path"
import type { PluginManifest } from "../../kernel/contract/manifest.ts"
import {
  BundleTooLarge,
  ModuleAlreadyAvailable,
  ModuleDeliveryFailed,
  NotABundle,
  NotAModule,
  RefNotFound
} from "./contract/errors.ts"
import { InvalidManifest } from "../../kernel/contract/plugin-errors.ts"
import { openRegularFile, type ConfinedFolder } from "../../kernel/extensions/file-root.ts"
import { reservedNamespaces } from "../plugins/contract/reserved-namespaces.ts"
import { manifestFileName, readManifest } from "../../kernel/extensions/read-manifest.ts"
import { walk } from "../../kernel/extensions/walk.ts"

/** A module is a page and its assets: these keep one purchase from filling the plugin folder. */
export const maxModuleFiles = 64
export const maxModuleBytes = 4 * 1024 * 1024

export interface ModuleBundle {
  readonly manifest: PluginManifest
  /** Relative to the bundle's folder, forward slashes; absolute where they are read from. */
  readonly files: ReadonlyArray<{ readonly path: string; readonly absolute: string }>
}

/** What a refId names nothing of the seller's, as the other kinds answer it. */
export const missing = (refId: string) =>
  new RefNotFound({
    message: "You have no module bundle with that id: name a folder of your uploads or of a project's workspace.",
    details: { kind: "module", refId }
  })

/** The bundle at `path` of the seller's root: a folder, a module manifest, files within bounds. */
export const readModuleBundle = (root: ConfinedFolder, path: string, refId: string) =>
  Effect.gen(function* () {
    const folder = yield* Effect.tryPromise({
      try: async () => {
        const resolved = await root.resolve(path)
        return { ...resolved, isDir: (await stat(resolved.absolute)).isDirectory() }
      },
      catch: () => missing(refId)
    })
    if (!folder.isDir)
      return yield* new NotABundle({ message: "That is a file: name the module bundle's folder.", details: { refId } })
    // The manifest must lie inside the root too (a link out is refused), or its errors could quote another file.
    yield* Effect.tryPromise({
      try: () => root.resolve(folder.path === "" ? manifestFileName : `${folder.path}/${manifestFileName}`),
      catch: () => new InvalidManifest({ message: `The bundle's ${manifestFileName} leads outside your files.` })
    })
    const manifest = yield* readManifest(folder.absolute)
    if (reservedNamespaces.has(manifest.namespace)) {
      return yield* new InvalidManifest({
        message: `The namespace "${manifest.namespace}" is reserved for the node's built-ins; no install could take it.`
      })
    }
    if (!manifest.extensions.some((extension) => extension.kind === "module")) {
      return yield* new NotAModule({
        message: "This bundle's plugin.json declares no extension of kind module: it is not a module.",
        details: { id: manifest.id }
      })
    }
    const files = yield* Effect.tryPromise({
      try: async (signal) => {
        const found: Array<{ path: string; absolute: string }> = []
        let bytes = 0
        for await (const entry of walk(root, folder, { recursive: true, includeHidden: false, signal })) {
          if (entry.isDir) continue
          bytes += entry.stats.size
          found.push({
            path: folder.path === "" ? entry.path : entry.path.slice(folder.path.length + 1),
            absolute: entry.absolute
          })
          if (found.length > maxModuleFiles || bytes > maxModuleBytes) return null
        }
        return found
      },
      catch: () => new NotABundle({ message: "The bundle's folder could not be read." })
    })
    if (files === null) {
      return yield* new BundleTooLarge({
        message: `A module bundle holds at most ${maxModuleFiles} files and ${maxModuleBytes / (1024 * 1024)} MB.`,
        details: {
          maxFiles: maxModuleFiles,
          maxBytes: maxModuleBytes
        }
      })
    }
    return { manifest, files } satisfies ModuleBundle
  })

const exists = (absolute: string) =>
  stat(absolute).then(
    () => true,
    () => false
  )

/** Copies one file, refusing anything that turned into something other than a regular file meanwhile. */
const copyFile = async (from: { readonly path: string; readonly absolute: string }, to: string) => {
  const handle = await openRegularFile(from.absolute, from.path)
  try {
    const bytes = await handle.readFile()
    await mkdir(dirname(to), { recursive: true })
    await writeFile(to, bytes, { flag: "wx" })
  } finally {
    await handle.close()
  }
}

/**
 * Writes the bundle into the plugin folder as `<namespace>/`: staged under `.incoming-<id>`, then
 * renamed, so the folder appears whole or not at all. Answers the folder's name (what
 * POST /api/plugins takes as `dir`) and its absolute path, for the buy to take back on a rollback.
 */
export const placeModuleBundle = (pluginDir: string, bundle: ModuleBundle, stagingId: string) =>
  Effect.gen(function* () {
    const root = resolve(pluginDir)
    const dir = bundle.manifest.namespace
    const target = join(root, dir)
    if (yield* Effect.promise(() => exists(target))) {
      return yield* new ModuleAlreadyAvailable({
        message: `The plugin folder already holds a "${dir}" folder: this module (or another of its namespace) is there to install.`,
        details: { dir }
      })
    }
    const staging = join(root, `.incoming-${stagingId}`)
    yield* Effect.tryPromise({
      try: async () => {
        try {
          await mkdir(staging, { recursive: true })
          for (const file of bundle.files) await copyFile(file, join(staging, ...file.path.split("/")))
          await rename(staging, target)
        } finally {
          await rm(staging, { recursive: true, force: true })
        }
      },
      catch: () =>
        new ModuleDeliveryFailed({
          message: "The module could not be written into the node's plugin folder; nothing was bought.",
          details: { dir }
        })
    })
    return { dir, absolute: target }
  })

/** Takes a delivered bundle back out (the buy rolled back after it was placed). */
export const removeModuleBundle = (absolute: string) =>
  Effect.promise(() => rm(absolute, { recursive: true, force: true }).catch(() => undefined))

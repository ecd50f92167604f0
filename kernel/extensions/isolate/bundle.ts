/**
 * A third-party plugin's `main`, bundled by esbuild into one script for its isolate, together with
 * the guest runtime (guest.ts) and the node's copy of effect. The resolver is confined: an import
 * resolves only to a file inside the plugin's own folder (real paths, so a symlink cannot lead
 * out), to the node's `effect` package (what a plugin's skill schemas are written with), or to the
 * guest runtime. Node built-ins, other host packages and any other file are refused, so bundling
 * never reads a file the plugin does not own into code it controls.
 */
import type { BuildFailure, Message, Plugin } from "esbuild"
import { realpath } from "node:fs/promises"
import { existsSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, isAbsolute, join, resolve as resolvePath, sep } from "node:path"
import { fileURLToPath } from "node:url"

/** The global the bundle assigns its guest runtime to (an IIFE's `globalName`). */
export const guestGlobal = "__pluginGuest"

/** Where Node would find package `name` from folder `from` (not every package exports its package.json). */
const packageFolder = (name: string, from: string) => {
  const found = (createRequire(`${from}/`).resolve.paths(name) ?? [])
    .map((modules) => join(modules, name))
    .find((folder) => existsSync(join(folder, "package.json")))
  if (found === undefined) throw new Error(`the node's copy of ${name} is missing`)
  return found
}

/** A package's folder and, transitively, those of what it depends on. */
const withDependencies = (folder: string, found: Set<string> = new Set()): Set<string> => {
  if (found.has(folder)) return found
  found.add(folder)
  const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as {
    readonly dependencies?: Record<string, string>
  }
  for (const name of Object.keys(manifest.dependencies ?? {})) withDependencies(packageFolder(name, folder), found)
  return found
}

const effectPackage = packageFolder("effect", dirname(fileURLToPath(import.meta.url)))
/**
 * effect and what it depends on (fast-check for Schema's arbitraries): the libraries a plugin may bundle from the node.
 */
const libraryFolders = [...withDependencies(effectPackage)]
const libraryRoots = Promise.all(libraryFolders.map((folder) => realpath(folder)))
const guestModule = fileURLToPath(new URL("./guest.ts", import.meta.url))

const confinedResolve = Symbol("confined")

const inside = (path: string, root: string) => path === root || path.startsWith(root + sep)

const confine = (pluginDir: string): Plugin => ({
  name: "confine-to-plugin-folder",
  setup: (build) => {
    const pluginRoot = realpath(pluginDir)
    build.onResolve({ filter: /.*/ }, async (args) => {
      if (args.pluginData === confinedResolve) return undefined
      const roots = await libraryRoots
      // A library's own imports stay within the node's packages: only the plugin's imports are checked.
      if (args.importer !== "" && roots.some((root) => inside(args.importer, root))) return undefined
      const resolved = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: confinedResolve
      })
      if (resolved.errors.length > 0) return { errors: resolved.errors }
      const refused = {
        errors: [
          { text: `"${args.path}" is outside the plugin folder: a plugin bundles only its own files and effect.` }
        ]
      }
      if (resolved.namespace !== "file" || resolved.external) return refused
      const real = await realpath(resolved.path).catch(() => resolved.path)
      return real === guestModule || [await pluginRoot, ...roots].some((root) => inside(real, root))
        ? { path: real }
        : refused
    })
  }
})

/** Where a message points inside the plugin folder; a library's place is the node's business. */
const describeMessages = (messages: ReadonlyArray<Message>) =>
  messages
    .slice(0, 3)
    .map((message) =>
      message.location === null || message.location.file.startsWith("..") || isAbsolute(message.location.file)
        ? message.text
        : `${message.location.file}:${message.location.line}: ${message.text}`
    )
    .join("; ")

export interface PluginBundle {
  readonly code: string
  /** Absolute paths of every file bundled: the plugin's, effect's and the guest runtime. */
  readonly inputs: ReadonlyArray<string>
}

/** The plugin's script for its isolate; rejects with an Error naming what could not be bundled. */
export const bundlePlugin = async (dir: string, main: string): Promise<PluginBundle> => {
  const esbuild = await import("esbuild")
  const entry = [
    `import * as plugin from ${JSON.stringify(`./${main.replaceAll("\\", "/")}`)}`,
    `import * as Effect from "effect/Effect"`,
    `import * as JSONSchema from "effect/JSONSchema"`,
    `import * as ParseResult from "effect/ParseResult"`,
    `import * as Schema from "effect/Schema"`,
    `import { makeGuest } from ${JSON.stringify(guestModule)}`,
    `export const guest = makeGuest({ plugin, Effect, JSONSchema, ParseResult, Schema })`
  ].join("\n")
  try {
    const built = await esbuild.build({
      stdin: { contents: entry, resolveDir: dir, loader: "js" },
      bundle: true,
      write: false,
      format: "iife",
      globalName: guestGlobal,
      platform: "neutral",
      // Messages then name files relative to the plugin folder, never the host's paths.
      absWorkingDir: dir,
      mainFields: ["module", "main"],
      target: "es2022",
      // A plugin without its own node_modules still finds effect: the node's copy.
      nodePaths: [dirname(effectPackage)],
      minifyWhitespace: true,
      minifySyntax: true,
      logLevel: "silent",
      metafile: true,
      plugins: [confine(dir)]
    })
    return {
      code: built.outputFiles[0]!.text,
      inputs: Object.keys(built.metafile.inputs)
        .filter((input) => input !== "<stdin>")
        .map((input) => resolvePath(dir, input))
    }
  } catch (error) {
    const failure = error as Partial<BuildFailure>
    throw new Error(failure.errors === undefined ? String(error) : describeMessages(failure.errors))
  }
}

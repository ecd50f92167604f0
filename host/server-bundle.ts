/**
 * The node's modules as one bundle for `npm start`, built with esbuild when its sources changed and reused otherwise.
 *
 * Why: loading the node module by module spent most of a start's CPU in Node's loader (about 1,800 modules: package
 * lookups, resolution, type stripping), not in the node: measured, importing host/start.ts took 1.6–3.3 s, the bundle
 * 0.65–0.9 s (docs/benchmarks.md). Bundling also drops what nothing calls (effect/Schema's import of fast-check).
 *
 * What goes in: the repository's own files and the pure-JavaScript packages of `bundled` (the effect ecosystem and the
 * libraries that made up most of the module count). Every other package stays an import of node_modules, as before:
 * native addons, and packages that find their own files at run time (pdf.js's worker, pdfkit's fonts). In our files
 * `import.meta.url` becomes the source file's own URL, so a file read beside its module (the sandbox's launcher, the
 * web app's folder) is found as before; `import.meta.main` is false, since the bundle is imported, never run.
 *
 * Where: node_modules/.cache/node-server/<hash>/, a folder per hash of the inputs and the folder they were read from
 * (`bundleKey`), renamed into place once complete, so two nodes starting at once never read a half-written bundle;
 * `latest.json` names the newest. The hash
 * covers the inputs esbuild read (our files; package-lock.json stands for node_modules) and this file.
 * ./bundled-start.ts loads it. Tests import the modules themselves; the nodes they start as processes load the bundle.
 */
import { createHash, randomBytes } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join, relative, sep } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { hashFiles, repoRoot } from "../ui/build-stamp.ts"

/** The packages bundled with our files: pure JavaScript that reads no file of its own at run time. */
const bundled = [
  "effect",
  "@effect/",
  "fast-check",
  "pure-rand",
  "undici",
  "ajv",
  "fast-uri",
  "fast-deep-equal",
  "json-schema-traverse",
  "semver",
  "ws",
  "msgpackr",
  "multipasta",
  "find-my-way-ts",
  "@noble/",
  "@scure/",
  "canonicalize",
  "pg",
  "pg-",
  "pgpass",
  "postgres-",
  "split2",
  "xtend",
  "iconv-lite",
  "safer-buffer"
]

const packageOf = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] as string)
}

export const isBundled = (specifier: string): boolean => {
  const name = packageOf(specifier)
  return bundled.some((entry) => (entry.endsWith("/") || entry.endsWith("-") ? name.startsWith(entry) : name === entry))
}

export interface ServerBundleOptions {
  /** The folder the inputs' paths are relative to, holding package-lock.json: the repository. */
  readonly root?: string
  /** The module to bundle, relative to `root`; it keeps its exports. */
  readonly entry?: string
  /** Where bundles are kept. */
  readonly cacheDir?: string
}

interface Latest {
  readonly hash: string
  /** Files under `root` the bundle was made from, relative, each once. */
  readonly inputs: ReadonlyArray<string>
}

const thisFile = fileURLToPath(import.meta.url)
/** The stand-ins the bundle gives importers of `node:http` and of `undici`, each a module beside this one. */
const nodeHttpRequired = fileURLToPath(new URL("./node-http-required.ts", import.meta.url))
const undiciAtFirstUse = fileURLToPath(new URL("./undici-at-first-use.ts", import.meta.url))
const toPosix = (path: string) => path.split(sep).join("/")

const readLatest = (cacheDir: string): Latest | null => {
  try {
    const latest = JSON.parse(readFileSync(join(cacheDir, "latest.json"), "utf8")) as Latest
    return typeof latest.hash === "string" && Array.isArray(latest.inputs) ? latest : null
  } catch {
    return null
  }
}

/** Writes a file whole or not at all: a second start reading it mid-write would see half a JSON. */
const writeAtomically = (file: string, text: string) => {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
  writeFileSync(temporary, text)
  renameSync(temporary, file)
}

/**
 * The bundle's key: its inputs' contents and the folder they were read from. The bundle holds the sources' absolute
 * paths (a module's `import.meta.url`, what `require` resolves from), so the same sources in another folder (a moved
 * checkout, a second work tree sharing node_modules) need a bundle of their own.
 */
const bundleKey = (inputs: ReadonlyArray<string>, root: string): string | null => {
  const contents = hashFiles(inputs, root)
  return contents === null ? null : createHash("sha256").update(contents).update("\0").update(root).digest("hex")
}

/** The stamp's files: what esbuild read under `root` outside node_modules, this file, and the lock file. */
const stampedInputs = (root: string, metafileInputs: ReadonlyArray<string>): Array<string> => {
  // A module of a plugin's namespace (a "namespace:path" input) is no file.
  const own = metafileInputs.filter((input) => !input.split("/").includes("node_modules") && !input.includes(":"))
  const self = toPosix(relative(root, thisFile))
  return [...new Set([...own, ...(self.startsWith("..") ? [] : [self]), "package-lock.json"])].sort()
}

/**
 * Keeps the current bundle and the newest few others (a node started from an older one may still import one of its
 * chunks lazily), and removes what a build that was killed half-way left (a `.building-…` folder an hour old). The
 * current one is named, not found by age: a tree changed back to an earlier state reuses that state's older folder.
 */
const prune = (cacheDir: string, current: string, keep: number) => {
  const folders = readdirSync(cacheDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => ({
      name: entry.name,
      path: join(cacheDir, entry.name),
      at: statSync(join(cacheDir, entry.name)).mtimeMs
    }))
    .sort((a, b) => b.at - a.at)
  const bundles = folders.filter((folder) => !folder.name.startsWith(".") && folder.name !== current)
  const abandoned = folders.filter((folder) => folder.name.startsWith(".") && folder.at < Date.now() - 3_600_000)
  for (const folder of [...bundles.slice(keep), ...abandoned]) rmSync(folder.path, { recursive: true, force: true })
}

/**
 * Makes a bundled file ASCII. V8 keeps a module's source for as long as its functions may still be compiled, as one
 * string; a single character outside Latin-1 makes it a two-byte string of twice the size (9 MB rather than 4.5 MB: the
 * comments esbuild keeps inside bundled CommonJS packages hold a few `’` and `§`). With `charset: "ascii"` code carries
 * only escapes, so what is left outside ASCII is in comments, and is replaced there.
 */
const asciiComments = (file: string) => {
  const text = readFileSync(file, "utf8")
  if (/[\u0080-\uffff]/.test(text)) writeFileSync(file, text.replace(/[\u0080-\uffff]/g, "?"))
}

export interface ServerBundle {
  /** The bundled entry's file URL, for `import()`. */
  readonly url: string
  /** The bundle's runnable file (./serve.ts bundled): `node <serve>` starts the node. */
  readonly serve: string
  readonly built: boolean
  readonly line: string
}

export const ensureServerBundle = async (options: ServerBundleOptions = {}): Promise<ServerBundle> => {
  const root = options.root ?? repoRoot
  const entry = options.entry ?? "host/start.ts"
  const cacheDir = options.cacheDir ?? join(root, "node_modules", ".cache", "node-server")
  const entryName = entry.split("/").pop()!.replace(/\.ts$/, ".mjs")
  const started = performance.now()
  const where = (hash: string) => join(cacheDir, hash)
  const located = (folder: string) => ({
    url: pathToFileURL(join(folder, entryName)).href,
    serve: join(folder, "serve.mjs")
  })
  const latest = readLatest(cacheDir)
  if (
    latest !== null &&
    existsSync(join(where(latest.hash), entryName)) &&
    bundleKey(latest.inputs, root) === latest.hash
  ) {
    return { ...located(where(latest.hash)), built: false, line: "" }
  }

  // Loaded only to build: a start that reuses the bundle never loads esbuild's JavaScript.
  const { build } = await import("esbuild")
  mkdirSync(cacheDir, { recursive: true })
  const building = join(cacheDir, `.building-${process.pid}-${randomBytes(4).toString("hex")}`)
  try {
    const result = await build({
      absWorkingDir: root,
      // The entry keeps its exports; ./serve.ts is what a started node runs (./bundled-start.ts).
      entryPoints: [entry, "host/serve.ts"],
      bundle: true,
      // Our modules imported lazily stay apart, in chunks loaded at their first import.
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node24",
      outdir: building,
      chunkNames: "chunk-[hash]",
      // Inside node_modules no package.json says "module", and Node would read each .js file twice to find out.
      outExtension: { ".js": ".mjs" },
      metafile: true,
      // No `keepNames`: it renames through a call at every function's creation, closures made per request included
      // (measured: 12 % fewer requests a second). esbuild renames a name only where two modules' top levels collide.
      logLevel: "silent",
      // Strings, template literals and regular expressions escape what is not ASCII (esbuild's default, named here since
      // the step after the build relies on it).
      charset: "ascii",
      // Bundled CommonJS asks for Node's built-ins and the packages left outside through `require`.
      banner: {
        js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);"
      },
      plugins: [
        {
          name: "node-sources",
          setup(plugin) {
            // A package imported lazily (`import("openai")`) is left to Node, loaded at its first use as before: split
            // into a chunk, esbuild would hand a CommonJS package's namespace only its `default`, where Node gives its
            // names too (`(await import("ajv")).Ajv` was undefined, and installing a plugin failed).
            plugin.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith("node:") || (isBundled(args.path) && args.kind !== "dynamic-import")
                ? undefined
                : { path: args.path, external: true }
            )
            // `node:http` through `require`, not `import` (./node-http-required.ts says why).
            plugin.onResolve({ filter: /^(node:)?http$/ }, (args) =>
              args.kind === "import-statement" ? { path: nodeHttpRequired } : undefined
            )
            // undici evaluated at its first use (./undici-at-first-use.ts says why).
            plugin.onResolve({ filter: /^undici$/ }, (args) =>
              args.kind === "import-statement" ? { path: undiciAtFirstUse } : undefined
            )
            plugin.onLoad({ filter: /\.ts$/ }, (args) => {
              if (args.path.split(sep).includes("node_modules")) return undefined
              const source = readFileSync(args.path, "utf8")
              return {
                contents: source
                  .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
                  .replaceAll("import.meta.main", "false"),
                loader: "ts"
              }
            })
          }
        }
      ]
    })
    for (const output of Object.keys(result.metafile.outputs)) asciiComments(join(root, output))
    const inputs = stampedInputs(root, Object.keys(result.metafile.inputs))
    const hash = bundleKey(inputs, root)
    if (hash === null) throw new Error("a source file went away while the node was being bundled; start it again")
    if (existsSync(where(hash))) rmSync(building, { recursive: true, force: true })
    else {
      try {
        renameSync(building, where(hash))
      } catch (error) {
        // Another start finished the same bundle first: use it.
        if (!existsSync(join(where(hash), entryName))) throw error
        rmSync(building, { recursive: true, force: true })
      }
    }
    writeAtomically(join(cacheDir, "latest.json"), `${JSON.stringify({ hash, inputs } satisfies Latest)}\n`)
    prune(cacheDir, hash, 2)
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    return {
      ...located(where(hash)),
      built: true,
      line: `Bundled the node's modules in ${seconds} s (${toPosix(relative(root, where(hash)))}); later starts reuse the bundle until a source changes`
    }
  } catch (error) {
    rmSync(building, { recursive: true, force: true })
    throw error
  }
}

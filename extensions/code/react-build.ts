/**
 * The offline build behind code.scaffold_react_node: esbuild bundles the front end (React from the
 * node's own install, through `nodePaths`, so no network is asked) into one self-contained page,
 * script and styles inlined: a preview runs in the project file route's opaque origin, where a
 * second request for a script would carry no session. The server is bundled for Node beside it,
 * never run. What the code may pull in is confined: its own files inside the workspace, react,
 * react-dom and scheduler, and Node's built-ins for the server; an import of anything else (a
 * host file by an absolute or climbing path, another package) fails the build, so nothing outside
 * the workspace ends up inside a bundle.
 */
import type * as Esbuild from "esbuild"
import type { Message, Plugin } from "esbuild"
import { builtinModules, createRequire } from "node:module"
import { realpath } from "node:fs/promises"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { lazyModule } from "../../kernel/lazy-module.ts"

/** esbuild at first use: only a build loads it. */
const esbuild = lazyModule<typeof Esbuild>("esbuild")

const allowedPackages: ReadonlySet<string> = new Set(["react", "react-dom", "scheduler"])

const require = createRequire(import.meta.url)
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))
/** Where the node's React lives: esbuild resolves bare imports there, as NODE_PATH would. */
const nodeModules = () => dirname(packageDir("react"))

const packageNameOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/")

const inside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep)

const confine = (rootReal: string, node: boolean): Plugin => ({
  name: "confine-to-workspace",
  setup(builder) {
    const allowedDirs = Promise.all([...allowedPackages].map((name) => realpath(packageDir(name))))
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === "entry-point") return undefined
      if (node && (args.path.startsWith("node:") || builtinModules.includes(args.path)))
        return { path: args.path, external: true }
      if (!node && allowedPackages.has(packageNameOf(args.path))) return undefined
      return {
        errors: [
          {
            text: `"${args.path}" cannot be imported here: the ${node ? "server may import Node's built-ins" : "front end may import react and react-dom"} and the app's own files.`
          }
        ]
      }
    })
    builder.onLoad({ filter: /.*/ }, async (args) => {
      const real = await realpath(args.path)
      if (inside(real, rootReal) || (await allowedDirs).some((dir) => inside(real, dir))) return undefined
      return { errors: [{ text: "An import leads outside the workspace; the app may import only its own files." }] }
    })
  }
})

export interface BuildStep {
  readonly ok: boolean
  readonly log: ReadonlyArray<string>
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

const describeMessages = async (messages: ReadonlyArray<Message>, kind: "error" | "warning") =>
  messages.length === 0
    ? []
    : (await esbuild().formatMessages([...messages], { kind, color: false })).map((text) => text.trimEnd())

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;")

/** Only `</script` (or `</style`) could end the element early; `<\/` reads the same to JavaScript and CSS. */
const inlineSafe = (code: string, tag: "script" | "style") => code.replaceAll(new RegExp(`</(${tag})`, "gi"), "<\\/$1")

const pageOf = (title: string, js: string, css: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${inlineSafe(css, "style")}</style>
</head>
<body>
<div id="root"></div>
<script>${inlineSafe(js, "script")}</script>
</body>
</html>
`

/** What both builds share: in memory (the caller writes through the file root), quiet, confined. */
const bundleOptions = async (rootDir: string, entry: string, node: boolean) => ({
  absWorkingDir: rootDir,
  entryPoints: [entry],
  bundle: true,
  write: false as const,
  logLevel: "silent" as const,
  plugins: [confine(await realpath(rootDir), node)]
})

export const buildHeader = () => `esbuild ${esbuild().version}, offline (React from the node's own install)`

/** Bundles `entry` (relative to `rootDir`) into the text of one page; answers it with the log, or the errors. */
export const buildFrontEnd = async (
  rootDir: string,
  entry: string,
  title: string
): Promise<BuildStep & { readonly html: string | null }> => {
  const started = performance.now()
  try {
    const result = await esbuild().build({
      ...(await bundleOptions(rootDir, entry, false)),
      outdir: "out",
      format: "iife",
      platform: "browser",
      target: "es2022",
      jsx: "automatic",
      minify: true,
      legalComments: "none",
      define: { "process.env.NODE_ENV": '"production"' },
      nodePaths: [nodeModules()]
    })
    const js = result.outputFiles.find((file) => file.path.endsWith(".js"))?.text ?? ""
    const css = result.outputFiles.find((file) => file.path.endsWith(".css"))?.text ?? ""
    const html = pageOf(title, js, css)
    return {
      ok: true,
      html,
      log: [
        ...(await describeMessages(result.warnings, "warning")),
        `${entry} → one page, script ${kilobytes(js.length)} and styles ${kilobytes(css.length)} inlined, in ${Math.round(performance.now() - started)} ms`
      ]
    }
  } catch (error) {
    const failure = error as { errors?: ReadonlyArray<Message>; warnings?: ReadonlyArray<Message> }
    const errors = failure.errors ?? []
    return {
      ok: false,
      html: null,
      log: [
        `The front end did not build: ${errors.length} error${errors.length === 1 ? "" : "s"}.`,
        ...(await describeMessages(errors, "error")),
        ...(await describeMessages(failure.warnings ?? [], "warning"))
      ]
    }
  }
}

/** Bundles the server for Node (written by the caller through the file root to `outfile`); it is built, never run. */
export const buildServer = async (
  rootDir: string,
  entry: string,
  outfile: string
): Promise<BuildStep & { readonly code: string | null }> => {
  const started = performance.now()
  try {
    const result = await esbuild().build({
      ...(await bundleOptions(rootDir, entry, true)),
      outfile: join(rootDir, outfile),
      format: "esm",
      platform: "node",
      target: "node22"
    })
    const code = result.outputFiles[0]?.text ?? ""
    return {
      ok: true,
      code,
      log: [
        ...(await describeMessages(result.warnings, "warning")),
        `${entry} → ${outfile} (${kilobytes(code.length)}) in ${Math.round(performance.now() - started)} ms`
      ]
    }
  } catch (error) {
    const errors = (error as { errors?: ReadonlyArray<Message> }).errors ?? []
    return {
      ok: false,
      code: null,
      log: [
        `The server did not build: ${errors.length} error${errors.length === 1 ? "" : "s"}.`,
        ...(await describeMessages(errors, "error"))
      ]
    }
  }
}

/** The path of a file of the shipped template, relative to the template's folder. */
export const templateDir = join(dirname(fileURLToPath(import.meta.url)), "scaffold-template")
export const relativeTo = (dir: string, path: string) => relative(dir, path).split(sep).join("/")

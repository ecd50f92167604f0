/**
 * Builds the web app into ui/dist:
 * - `assets/app-<hash>.js`, the shell (ui/app.ts), and one chunk per place folder, which the
 *   shell imports when that place first opens, plus the chunks esbuild shares between them; all
 *   minified ES modules with source maps. Names carry a hash of their content, so the host can
 *   let browsers keep them for a year.
 * - `assets/app-<hash>.css`, the global stylesheet.
 * - a brotli (`.br`) and a gzip (`.gz`) copy of each script and stylesheet, compressed once here
 *   at the highest levels so the host never compresses per request.
 * - `index.html`, naming the hashed files (and preloading the shell's static imports). It
 *   carries no inline script or style: the host serves it under a content security policy that
 *   allows only 'self'.
 * - `build-stamp.json` (ui/build-stamp.ts), last.
 * `npm run build:ui` runs this file; `npm start` calls `ensureUiBuild()`; tests call `buildUi()`.
 * esbuild is imported only when a build runs, so checking the stamp costs a start nothing.
 */
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { promisify } from "node:util"
import { brotliCompress, constants, gzip } from "node:zlib"
import {
  type BuildStamp,
  distDir,
  hashFiles,
  isBuildCurrent,
  repoRoot,
  stampedFiles,
  uiDir,
  writeStamp
} from "./build-stamp.ts"
import { buildPwa, pwaFiles, THEME_TOKEN } from "./build-pwa.ts"

export { distDir }

const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

const indexHtml = (
  entry: string,
  stylesheet: string,
  preloads: ReadonlyArray<string>,
  themeColor: string
) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Node</title>
    <link rel="icon" href="/icon-192.png">
    <link rel="manifest" href="/manifest.webmanifest">
    <meta name="theme-color" content="${themeColor}">
    <link rel="apple-touch-icon" href="/icon-192.png">
    <link rel="stylesheet" href="/${stylesheet}">
    <script type="module" src="/${entry}"></script>
${preloads.map((file) => `    <link rel="modulepreload" href="/${file}">\n`).join("")}  </head>
  <body>
    <offline-notice></offline-notice>
    <node-app></node-app>
    <noscript>This node's web app needs JavaScript.</noscript>
  </body>
</html>
`

export interface UiBuild {
  readonly outDir: string
  readonly stamp: BuildStamp
  /** What the first paint of any place fetches: the shell, its static imports and the stylesheet. */
  readonly shellBytes: number
  readonly shellBrotliBytes: number
  /** Every script of the build, places included. */
  readonly allScriptBytes: number
}

/** Writes `.br` and `.gz` beside a file, each only when it is smaller than the file. */
const precompress = async (file: string): Promise<{ bytes: number; brotliBytes: number }> => {
  const content = await readFile(file)
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.byteLength
      }
    }),
    gzipped(content, { level: constants.Z_BEST_COMPRESSION })
  ])
  if (br.byteLength < content.byteLength) await writeFile(`${file}.br`, br)
  if (gz.byteLength < content.byteLength) await writeFile(`${file}.gz`, gz)
  return { bytes: content.byteLength, brotliBytes: Math.min(br.byteLength, content.byteLength) }
}

/** Builds from the sources into `outDir` (ui/dist unless a test names another folder). */
export const buildUi = async (options: { readonly outDir?: string } = {}): Promise<UiBuild> => {
  const esbuild = await import("esbuild")
  const outDir = options.outDir ?? distDir
  const assetsDir = join(outDir, "assets")
  await rm(outDir, { recursive: true, force: true })
  await mkdir(assetsDir, { recursive: true })
  const common = {
    outdir: assetsDir,
    bundle: true,
    minify: true,
    entryNames: "[name]-[hash]",
    metafile: true,
    logLevel: "warning"
  } as const
  const [scripts, styles] = await Promise.all([
    esbuild.build({
      ...common,
      absWorkingDir: repoRoot,
      entryPoints: { app: join(uiDir, "app.ts") },
      // Every `import()` of a place becomes its own chunk; what two chunks share goes to a third.
      splitting: true,
      chunkNames: "[name]-[hash]",
      format: "esm",
      target: "es2022",
      sourcemap: true,
      legalComments: "linked"
    }),
    esbuild.build({ ...common, absWorkingDir: repoRoot, entryPoints: { app: join(uiDir, "styles", "app.css") } })
  ])

  // Metafile paths are relative to the working directory (the repository); ours, relative to outDir.
  const fromOut = (path: string) => relative(outDir, join(repoRoot, path)).split("\\").join("/")
  const outputs = { ...scripts.metafile.outputs, ...styles.metafile.outputs }
  const outputOf = (entryPoint: string) => Object.keys(outputs).find((path) => outputs[path].entryPoint === entryPoint)
  const entryPath = outputOf("ui/app.ts")
  const stylesheetPath = outputOf("ui/styles/app.css")
  if (entryPath === undefined || stylesheetPath === undefined)
    throw new Error("esbuild named no output for the app's entry or its stylesheet")
  const places: Record<string, string> = {}
  for (const [path, output] of Object.entries(outputs)) {
    const place = /^ui\/places\/([^/]+)\//.exec(output.entryPoint ?? "")?.[1]
    if (place !== undefined) places[place] = fromOut(path)
  }
  const shellImports = outputs[entryPath].imports
    .filter((item) => item.kind === "import-statement")
    .map((item) => item.path)
  await writeFile(
    join(outDir, "index.html"),
    indexHtml(fromOut(entryPath), fromOut(stylesheetPath), shellImports.map(fromOut), await THEME_TOKEN())
  )

  const compressible = Object.keys(outputs).filter((path) => /\.(js|css)$/.test(path))
  const sizes = new Map(
    await Promise.all(compressible.map(async (path) => [path, await precompress(join(repoRoot, path))] as const))
  )
  const sum = (paths: ReadonlyArray<string>, pick: (size: { bytes: number; brotliBytes: number }) => number) =>
    paths.reduce((total, path) => total + pick(sizes.get(path) ?? { bytes: 0, brotliBytes: 0 }), 0)
  const shellFiles = [entryPath, stylesheetPath, ...shellImports]

  const inputs = Object.keys({ ...scripts.metafile.inputs, ...styles.metafile.inputs }).filter(
    (path) => !path.startsWith("node_modules/") && !path.startsWith("ui/")
  )
  const files = stampedFiles(outDir, inputs)
  const hash = hashFiles(files)
  if (hash === null) throw new Error("a source of the web app disappeared while it was being built")
  await buildPwa(outDir, [entryPath, stylesheetPath, ...shellImports].map(fromOut), hash)
  const built = await Promise.all(
    [...Object.keys(outputs), ...compressible.flatMap((path) => [`${path}.br`, `${path}.gz`])].map(async (path) =>
      (await stat(join(repoRoot, path)).catch(() => null)) === null ? [] : [fromOut(path)]
    )
  )
  const stamp: BuildStamp = {
    hash,
    inputs: files.filter((file) => !file.startsWith("ui/")),
    files: ["index.html", ...Object.keys(pwaFiles), ...built.flat()].sort(),
    entry: fromOut(entryPath),
    stylesheet: fromOut(stylesheetPath),
    places
  }
  writeStamp(outDir, stamp)
  return {
    outDir,
    stamp,
    shellBytes: sum(shellFiles, (size) => size.bytes),
    shellBrotliBytes: sum(shellFiles, (size) => size.brotliBytes),
    allScriptBytes: sum(
      compressible.filter((path) => path.endsWith(".js")),
      (size) => size.bytes
    )
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export const describeBuild = (build: UiBuild, ms: number): string =>
  `Built the web app into ${build.outDir} in ${Math.round(ms)} ms: first paint ${kb(build.shellBytes)} ` +
  `(${kb(build.shellBrotliBytes)} brotli) plus the open place; ${Object.keys(build.stamp.places).length} places, ` +
  `${kb(build.allScriptBytes)} of scripts in all`

/**
 * What `npm start` does before the node starts: reuse the build when its stamp matches the
 * sources, build otherwise. Answers the one line to print.
 */
export const ensureUiBuild = async (
  options: { readonly outDir?: string } = {}
): Promise<{ readonly built: boolean; readonly line: string }> => {
  const outDir = options.outDir ?? distDir
  const started = performance.now()
  if (isBuildCurrent(outDir)) {
    return {
      built: false,
      line: `Reused the web app's build in ${outDir.startsWith(repoRoot) ? relative(repoRoot, outDir) : outDir}: its sources have not changed (checked in ${Math.round(performance.now() - started)} ms)`
    }
  }
  const build = await buildUi({ outDir })
  return { built: true, line: describeBuild(build, performance.now() - started) }
}

if (import.meta.main) {
  const started = performance.now()
  console.log(describeBuild(await buildUi(), performance.now() - started))
}

/**
 * Builds the web app into ui/dist: one minified ES module bundle (assets/app.js with its source
 * map), the global stylesheet (assets/app.css) and index.html. The HTML carries no inline script
 * or style, because the host serves it under a content security policy that allows only 'self'.
 * `npm run build:ui` runs this file; tests call `buildUi()`. A node reads these files as it starts,
 * and `npm start` builds while other nodes may be starting (the end-to-end tests run side by
 * side): so a file is only replaced when its content changed, and then whole, by a rename.
 */
import * as esbuild from "esbuild"
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { basename, join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const uiDir = fileURLToPath(new URL(".", import.meta.url))
export const distDir = join(uiDir, "dist")

const indexHtml = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <title>Node</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="/assets/app.css">
    <script type="module" src="/assets/app.js"></script>
  </head>
  <body>
    <node-app></node-app>
    <noscript>This node's web app needs JavaScript.</noscript>
  </body>
</html>
`

export interface UiBuild {
  readonly jsBytes: number
  readonly jsGzipBytes: number
  readonly cssBytes: number
}

/** Replaces `path` with `contents` unless it holds them already; a reader sees the old file or the new one. */
const replaceFile = async (path: string, contents: Uint8Array): Promise<void> => {
  const current = await readFile(path).catch(() => null)
  if (current !== null && Buffer.compare(current, contents) === 0) return
  // Outside dist, so a node listing the assets never meets a half-written file.
  const temporary = join(uiDir, `.build-${process.pid}-${basename(path)}`)
  await writeFile(temporary, contents)
  await rename(temporary, path)
}

export const buildUi = async (): Promise<UiBuild> => {
  const assetsDir = join(distDir, "assets")
  await mkdir(assetsDir, { recursive: true })
  const app = await esbuild.build({
    absWorkingDir: join(uiDir, ".."),
    entryPoints: { app: join(uiDir, "app.ts") },
    outdir: assetsDir,
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    sourcemap: true,
    legalComments: "linked",
    logLevel: "warning",
    write: false
  })
  const styles = await esbuild.build({
    entryPoints: { app: join(uiDir, "styles", "app.css") },
    outdir: assetsDir,
    bundle: true,
    minify: true,
    logLevel: "warning",
    write: false
  })
  const outputs = [...app.outputFiles, ...styles.outputFiles]
  for (const file of outputs) await replaceFile(file.path, file.contents)
  await replaceFile(join(distDir, "index.html"), new TextEncoder().encode(indexHtml))
  // What an earlier build made and this one did not goes.
  const made = new Set(outputs.map((file) => basename(file.path)))
  for (const name of await readdir(assetsDir)) if (!made.has(name)) await rm(join(assetsDir, name), { force: true })
  const js = await readFile(join(assetsDir, "app.js"))
  const css = await readFile(join(assetsDir, "app.css"))
  return { jsBytes: js.byteLength, jsGzipBytes: gzipSync(js).byteLength, cssBytes: css.byteLength }
}

if (import.meta.main) {
  const started = performance.now()
  const result = await buildUi()
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  console.log(
    `Built the web app into ${distDir} in ${Math.round(performance.now() - started)} ms: ` +
      `app.js ${kb(result.jsBytes)} (${kb(result.jsGzipBytes)} gzipped), app.css ${kb(result.cssBytes)}`
  )
}

/**
 * What makes the web app installable, written by ui/build.ts beside index.html: `manifest.webmanifest` (its colours
 * read from the design tokens of ui/styles/app.css), the icons (192 and 512 px, and a maskable 512 px whose mark sits
 * inside the safe circle; drawn from the same tokens by ui/build-icons.ts and kept in ui/icons/, so a build, which
 * `npm start` may run in the node's own process, never loads a canvas), and the service worker `sw.js`
 * (ui/sw/service-worker.ts) with the shell's files and the build's hash written in. The host serves each at the root
 * (host/http/ui-files.ts).
 */
import { copyFile, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { repoRoot, uiDir } from "./build-stamp.ts"

/** The files the build adds at its root, each with its content type. */
export const pwaFiles: Readonly<Record<string, string>> = {
  "sw.js": "text/javascript; charset=utf-8",
  "manifest.webmanifest": "application/manifest+json",
  "icon-192.png": "image/png",
  "icon-512.png": "image/png",
  "icon-maskable-512.png": "image/png"
}

/** The icons, as ui/icons/ keeps them and the build's root serves them. */
export const iconFiles = ["icon-192.png", "icon-512.png", "icon-maskable-512.png"] as const

export const APP_NAME = "Personal node"
export const APP_SHORT_NAME = "Node"

/** A token's colour as app.css declares it (`--node-primary-600: #3f51d6;`). */
export const token = (css: string, name: string): string => {
  const found = new RegExp(`--${name}:\\s*(#[0-9a-fA-F]{3,8})\\s*;`).exec(css)
  if (found === null) throw new Error(`ui/styles/app.css declares no colour --${name}`)
  return found[1]!
}

/** The theme colour index.html names: the accent token. */
export const THEME_TOKEN = async () =>
  token(await readFile(join(uiDir, "styles", "app.css"), "utf8"), "node-primary-600")

/**
 * Writes the manifest, icons and service worker into `outDir`; `shellFiles` are the build's paths (from outDir) the
 * first paint needs, and `hash` names the worker's cache.
 */
export const buildPwa = async (outDir: string, shellFiles: ReadonlyArray<string>, hash: string) => {
  const css = await readFile(join(uiDir, "styles", "app.css"), "utf8")
  const accent = token(css, "node-primary-600")
  const background = token(css, "node-neutral-50")
  const manifest = {
    name: APP_NAME,
    short_name: APP_SHORT_NAME,
    description: "Your own node: desktop, twin, studio and messages.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    theme_color: accent,
    background_color: background,
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icon-maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" }
    ]
  }
  const shell = [
    "/",
    ...shellFiles.map((file) => `/${file}`),
    ...Object.keys(pwaFiles)
      .filter((name) => name !== "sw.js")
      .map((name) => `/${name}`)
  ]
  const esbuild = await import("esbuild")
  const worker = await esbuild.build({
    absWorkingDir: repoRoot,
    entryPoints: [join(uiDir, "sw", "service-worker.ts")],
    bundle: true,
    minify: true,
    format: "iife",
    target: "es2022",
    write: false,
    define: { SHELL_FILES: JSON.stringify(shell), BUILD_HASH: JSON.stringify(hash) },
    logLevel: "warning"
  })
  await Promise.all([
    writeFile(join(outDir, "manifest.webmanifest"), `${JSON.stringify(manifest, null, 2)}\n`),
    ...iconFiles.map((name) => copyFile(join(uiDir, "icons", name), join(outDir, name))),
    writeFile(join(outDir, "sw.js"), worker.outputFiles[0]!.contents)
  ])
}

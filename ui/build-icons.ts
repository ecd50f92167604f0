/**
 * Draws the app's icons into ui/icons/ from the design tokens of ui/styles/app.css (the accent behind a ring and a
 * dot in the lightest neutral): 192 and 512 px, and a maskable 512 px whose mark keeps inside the safe circle.
 * Run by hand (`node ui/build-icons.ts`) when the accent changes; the build copies them (ui/build-pwa.ts), so the
 * node's own process never loads @napi-rs/canvas.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { uiDir } from "./build-stamp.ts"
import { token } from "./build-pwa.ts"

/** The node's mark: a ring with a dot, on the accent colour; `inset` is the share of the side left around it. */
const drawIcon = async (size: number, accent: string, light: string, inset: number) => {
  const { createCanvas } = await import("@napi-rs/canvas")
  const canvas = createCanvas(size, size)
  const context = canvas.getContext("2d")
  context.fillStyle = accent
  context.fillRect(0, 0, size, size)
  const centre = size / 2
  const radius = (size * (1 - 2 * inset)) / 2
  context.strokeStyle = light
  context.lineWidth = radius * 0.22
  context.beginPath()
  context.arc(centre, centre, radius * 0.78, 0, Math.PI * 2)
  context.stroke()
  context.fillStyle = light
  context.beginPath()
  context.arc(centre, centre, radius * 0.3, 0, Math.PI * 2)
  context.fill()
  return canvas.toBuffer("image/png")
}

export const drawIcons = async (outDir: string = join(uiDir, "icons")) => {
  const css = await readFile(join(uiDir, "styles", "app.css"), "utf8")
  const accent = token(css, "node-primary-600")
  const light = token(css, "node-neutral-0")
  await mkdir(outDir, { recursive: true })
  const [small, large, maskable] = await Promise.all([
    drawIcon(192, accent, light, 0.08),
    drawIcon(512, accent, light, 0.08),
    drawIcon(512, accent, light, 0.2)
  ])
  await Promise.all([
    writeFile(join(outDir, "icon-192.png"), small),
    writeFile(join(outDir, "icon-512.png"), large),
    writeFile(join(outDir, "icon-maskable-512.png"), maskable)
  ])
}

if (import.meta.main) await drawIcons()

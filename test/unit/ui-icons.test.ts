/**
 * The app's icons kept in ui/icons/ (drawn by ui/build-icons.ts) are of the sizes the manifest names and wear the
 * accent of the design tokens: a token changed without `node ui/build-icons.ts` run again fails here.
 */
import { createCanvas, loadImage } from "@napi-rs/canvas"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { iconFiles, token } from "../../ui/build-pwa.ts"

const hex = (rgb: ArrayLike<number>) =>
  `#${Array.from({ length: 3 }, (_, i) => rgb[i]!.toString(16).padStart(2, "0")).join("")}`

describe("the app's icons", () => {
  it("are the manifest's sizes, on the accent colour", async () => {
    const accent = token(readFileSync(new URL("../../ui/styles/app.css", import.meta.url), "utf8"), "node-primary-600")
    for (const [name, size] of [
      ["icon-192.png", 192],
      ["icon-512.png", 512],
      ["icon-maskable-512.png", 512]
    ] as const) {
      expect(iconFiles).toContain(name)
      const image = await loadImage(readFileSync(new URL(`../../ui/icons/${name}`, import.meta.url)))
      expect([image.width, image.height], name).toEqual([size, size])
      const canvas = createCanvas(size, size)
      const context = canvas.getContext("2d")
      context.drawImage(image, 0, 0)
      expect(hex(context.getImageData(2, 2, 1, 1).data), name).toBe(accent.toLowerCase())
    }
  })
})

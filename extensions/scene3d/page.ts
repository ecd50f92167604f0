/**
 * The one self-contained HTML file a scene becomes: the scene body (a model's or a procedural
 * look) inside a fixed frame that owns everything else — the import map pinning three.js, a HUD,
 * mouse-parallax camera drift, and a render loop that keeps drawing when the scene's update throws
 * (the error is counted and shown in the HUD, never fatal). The import map is written by a tiny
 * script before any module loads: served by the node's project file route it names the node's own
 * copy of three.js, anywhere else the pinned CDN file.
 */
import { threeCdnUrl, threeNodePath } from "./three.ts"

export interface ScenePage {
  readonly title: string
  readonly body: string
  readonly seed: number
  /** Shown in the HUD: the look, or that the model wrote it. */
  readonly caption: string
}

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;")

/** Inside a script element only `</script` could end it early; `<\/` means the same to JavaScript in strings. */
const scriptSafe = (code: string) => code.replaceAll(/<\/(script)/gi, "<\\/$1")

export const scenePage = (page: ScenePage): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style>
  html, body { margin: 0; height: 100%; overflow: hidden; background: #0b0e14; color: #e8eaf0; font: 14px/1.4 system-ui, sans-serif; }
  canvas { display: block; }
  #hud { position: fixed; left: 12px; top: 12px; padding: 8px 12px; border-radius: 8px; background: rgba(0, 0, 0, 0.45); pointer-events: none; }
  #hud strong { display: block; font-size: 15px; }
  #hud-error { color: #ff9b8f; }
</style>
<script>
  // Before any module loads: the node's copy of three.js when the node serves this page, else the pinned CDN file.
  (() => {
    const served = location.protocol.startsWith("http") && location.pathname.startsWith("/api/files/")
    const map = document.createElement("script")
    map.type = "importmap"
    map.textContent = JSON.stringify({ imports: { three: served ? new URL(${JSON.stringify(threeNodePath)}, location.href).href : ${JSON.stringify(threeCdnUrl)} } })
    document.currentScript.after(map)
  })()
</script>
</head>
<body>
<div id="hud"><strong>${escapeHtml(page.title)}</strong><span id="hud-caption">${escapeHtml(page.caption)}</span> · <span id="hud-fps">starting</span><div id="hud-error"></div></div>
<script type="module">
import * as THREE from "three"

const hudFps = document.getElementById("hud-fps")
const hudError = document.getElementById("hud-error")

// The scene's own random numbers, seeded, so a scene looks the same every time it is opened.
const random = ((seed) => () => {
  seed = (seed + 0x6d2b79f5) >>> 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
})(${page.seed})

${scriptSafe(page.body)}

let renderer
try {
  renderer = new THREE.WebGLRenderer({ antialias: true })
} catch (error) {
  hudFps.textContent = "stopped"
  hudError.textContent = "This browser cannot draw 3D here (WebGL is unavailable)."
  throw error
}
renderer.setPixelRatio(Math.min(devicePixelRatio, 2))
renderer.setSize(innerWidth, innerHeight)
document.body.appendChild(renderer.domElement)
const scene = new THREE.Scene()
scene.background = new THREE.Color(0x0b0e14)
const camera = new THREE.PerspectiveCamera(55, innerWidth / innerHeight, 0.1, 500)
camera.position.set(0, 2, 10)

let update = null
try {
  const made = createScene(THREE, scene, camera, random)
  update = typeof made === "function" ? made : typeof made?.update === "function" ? made.update.bind(made) : null
} catch (error) {
  hudError.textContent = "The scene could not be built: " + (error?.message ?? error)
}

// Mouse-parallax drift: the camera leans toward the pointer around where the scene placed it.
const base = camera.position.clone()
const pointer = { x: 0, y: 0 }
const drift = { x: 0, y: 0 }
addEventListener("pointermove", (event) => {
  pointer.x = (event.clientX / innerWidth) * 2 - 1
  pointer.y = (event.clientY / innerHeight) * 2 - 1
})
addEventListener("resize", () => {
  camera.aspect = innerWidth / innerHeight
  camera.updateProjectionMatrix()
  renderer.setSize(innerWidth, innerHeight)
})

const clock = new THREE.Clock()
let frames = 0
let errors = 0
let shown = performance.now()
let shownFrames = 0
const frame = () => {
  requestAnimationFrame(frame)
  const delta = clock.getDelta()
  drift.x += (pointer.x - drift.x) * 0.05
  drift.y += (pointer.y - drift.y) * 0.05
  camera.position.set(base.x + drift.x * 1.5, base.y - drift.y * 1, base.z)
  camera.lookAt(0, 0, 0)
  // An error in the scene's update costs that frame's update, never the loop.
  if (update !== null) {
    try {
      update(clock.elapsedTime, delta)
    } catch (error) {
      errors += 1
      hudError.textContent = "update failed " + errors + "×: " + (error?.message ?? error)
    }
  }
  renderer.render(scene, camera)
  frames += 1
  document.body.dataset.frames = String(frames)
  const now = performance.now()
  if (now - shown >= 500) {
    hudFps.textContent = Math.round(((frames - shownFrames) * 1000) / (now - shown)) + " fps"
    shown = now
    shownFrames = frames
  }
}
requestAnimationFrame(frame)
</script>
</body>
</html>
`

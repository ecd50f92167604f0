/**
 * scene3d.create over the host's real llm adapter and Models, against the scripted OpenAI-protocol
 * server: the model's createScene in the page, one repair round trip told the exact error, the
 * procedural fallback (five looks, chosen and seeded by the description) when the repair fails,
 * when no model answers or when asked; the page's frame (pinned import map, HUD, parallax, a loop
 * that survives its update). The page is proven drawing in Chromium in test/e2e/scene3d.test.ts.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { looks, proceduralScene } from "../../../extensions/scene3d/procedural.ts"
import { checkScene } from "../../../extensions/scene3d/scene-check.ts"
import { remoteDefault } from "../../support/models.ts"
import { startOpenAiServer, type OpenAiServer } from "../../support/openai-server.ts"
import { startSkills, type SkillHarness } from "../../support/skills.ts"

let server: OpenAiServer
let skills: SkillHarness
let unconfigured: SkillHarness

beforeAll(async () => {
  server = await startOpenAiServer()
  skills = await startSkills({ settings: remoteDefault(server.baseUrl) })
  unconfigured = await startSkills()
})
afterAll(async () => {
  await Promise.all([skills.close(), unconfigured.close()])
  await server.close()
})
beforeEach(() => server.reset())

const spinningCube =
  "function createScene(THREE, scene, camera, random) {\n" +
  "  const cube = new THREE.Mesh(new THREE.BoxGeometry(), new THREE.MeshNormalMaterial())\n  scene.add(cube)\n" +
  "  return (time) => { cube.rotation.y = time }\n}"
const fenced = (code: string) => `Here is the scene:\n\`\`\`js\n${code}\n\`\`\`\n`
const page = (harness: SkillHarness, path: string) =>
  readFileSync(join(harness.dataDir, "uploads", "ada", path), "utf8")
const userTexts = (index: number) =>
  (server.requestsFor("chat")[index]?.body.messages ?? [])
    .filter((message) => message.role === "user")
    .map((message) => String(message.content))

describe("scene3d.create", () => {
  it("puts the model's createScene into one page with three 0.170.0 by import map, a HUD, parallax and a guarded loop", async () => {
    server.script("chat", { content: fenced(spinningCube) })
    const outcome = await skills.invoke(
      "scene3d.create",
      { description: "A spinning cube", path: "scenes/cube.html", title: "Cube" },
      { approved: false }
    )
    expect(outcome).toMatchObject({
      ok: true,
      output: { path: "scenes/cube.html", mime: "text/html", source: "model", costUsd: expect.any(Number) }
    })
    expect(outcome.output).not.toHaveProperty("note")
    const html = page(skills, "scenes/cube.html")
    expect((outcome.output as { size: number }).size).toBe(Buffer.byteLength(html))
    expect(html).toContain(spinningCube)
    expect(html).toContain('"https://cdn.jsdelivr.net/npm/three@0.170.0/build/three.module.js"')
    expect(html).toContain('map.type = "importmap"')
    expect(html).toContain('import * as THREE from "three"')
    expect(html).toMatch(/<div id="hud"><strong>Cube<\/strong>/)
    expect(html).toContain('addEventListener("pointermove"')
    expect(html).toMatch(/try \{\s+update\(clock.elapsedTime, delta\)\s+\} catch/)
    const [request] = server.requestsFor("chat")
    expect(String(request?.body.messages?.[0]?.content)).toContain("function createScene(THREE, scene, camera, random)")
  })

  it("gives one repair round trip with the exact error, and uses the repaired function", async () => {
    server.script(
      "chat",
      { content: fenced(spinningCube.replace("scene.add(cube)", "scene.add(cube); fetch('https://example.org')")) },
      { content: fenced(spinningCube) }
    )
    const outcome = await skills.invoke("scene3d.create", { description: "A cube", path: "repaired.html" })
    expect(outcome.output).toMatchObject({ source: "model" })
    expect(server.requestsFor("chat")).toHaveLength(2)
    expect(userTexts(1).at(-1)).toBe(
      "That function was refused: it references fetch (line 3), which a scene may not use. Answer with the corrected createScene function only."
    )
    expect(page(skills, "repaired.html")).not.toContain("fetch(")
  })

  it("falls back to a procedural scene, seeded by the description, when the repair fails too", async () => {
    server.script("chat", { content: "function createScene( {" }, { content: fenced("eval('1')") })
    const outcome = await skills.invoke("scene3d.create", {
      description: "A quiet harbour at dusk",
      path: "harbour.html"
    })
    const { look } = proceduralScene("A quiet harbour at dusk")
    expect(outcome.output).toMatchObject({
      source: "procedural",
      note: expect.stringContaining(
        `Drew the procedural ${look} look: the model's scene was refused twice (it does not parse as JavaScript`
      )
    })
    expect(String((outcome.output as { note: string }).note)).toMatch(
      /; then it must be exactly one function declaration/
    )
    expect(server.requestsFor("chat")).toHaveLength(2)
    expect(page(skills, "harbour.html")).toContain(`procedural: ${look}`)
  })

  it("draws procedurally without calling a model when asked, the same bytes for the same description", async () => {
    await skills.invoke("scene3d.create", { description: "Lanterns over a lake", path: "a.html", procedural: true })
    const again = await skills.invoke("scene3d.create", {
      description: "Lanterns over a lake",
      path: "b.html",
      procedural: true
    })
    expect(again.output).toMatchObject({
      source: "procedural",
      costUsd: 0,
      note: expect.stringContaining("a procedural scene was asked for")
    })
    expect(server.requestsFor("chat")).toEqual([])
    expect(page(skills, "a.html")).toBe(page(skills, "b.html"))
  })

  it("falls back when no model is configured, saying why", async () => {
    const outcome = await unconfigured.invoke("scene3d.create", { description: "Falling snow", path: "snow.html" })
    expect(outcome).toMatchObject({
      ok: true,
      output: { source: "procedural", note: expect.stringContaining("the model could not be asked (") }
    })
    expect(existsSync(join(unconfigured.dataDir, "uploads", "ada", "snow.html"))).toBe(true)
  })

  it("refuses a destination that is not .html or leaves the root, before any model call", async () => {
    expect(await skills.invoke("scene3d.create", { description: "x", path: "scene.js" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("is not an .html file")
    })
    expect(await skills.invoke("scene3d.create", { description: "x", path: "../out.html" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("climbs out")
    })
    expect(await skills.invoke("scene3d.create", { description: "  ", path: "x.html" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("describe the scene")
    })
    expect(server.requestsFor("chat")).toEqual([])
  })
})

describe("the procedural looks", () => {
  it("reaches all five looks across descriptions, each a body that passes the check", () => {
    const seen = new Set<string>()
    for (let index = 0; seen.size < looks.length && index < 200; index++) {
      const scene = proceduralScene(`scene number ${index}`)
      expect(checkScene(scene.body)).toEqual({ ok: true })
      seen.add(scene.look)
    }
    expect([...seen].sort()).toEqual([...looks].sort())
  })
})

describe("the scene check", () => {
  const wrap = (line: string) => `function createScene(THREE, scene, camera, random) {\n  ${line}\n}`
  it.each([
    ["fetch('/x')", "fetch"],
    ["new XMLHttpRequest()", "XMLHttpRequest"],
    ["new WebSocket('ws://x')", "WebSocket"],
    ["localStorage.x = 1", "localStorage"],
    ["eval('1')", "eval"],
    ["window['fetch']('/x')", "fetch"],
    ["globalThis.eval('1')", "eval"],
    ["const c = document.cookie", "document.cookie"],
    ["const c = document['cookie']", "document.cookie"]
  ])("refuses %s", (line, named) => {
    expect(checkScene(wrap(line))).toEqual({
      ok: false,
      error: `it references ${named} (line 2), which a scene may not use`
    })
  })

  it("refuses anything but one createScene declaration, and modules", () => {
    expect(checkScene(`import * as T from 'three'\n${wrap("")}`)).toMatchObject({
      ok: false,
      error: expect.stringContaining("does not parse")
    })
    expect(checkScene(`${wrap("")}\nscene()`)).toMatchObject({
      ok: false,
      error: expect.stringContaining("exactly one function declaration")
    })
    expect(checkScene("function draw() {}")).toMatchObject({
      ok: false,
      error: expect.stringContaining("exactly one function declaration")
    })
    expect(checkScene(wrap("const cookies = 'a fetch of data'"))).toEqual({ ok: true })
  })
})

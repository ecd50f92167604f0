/**
 * Seeded generators run end to end on a real node whose model is the scripted OpenAI server, their
 * pages then opened through the node's project file route in Chromium. The 3D scene, with the
 * public CDN unreachable: the page imports the node's own copy of three.js 0.170.0, draws frame
 * after frame, shows its HUD, and keeps drawing while the model's update throws on every other
 * frame. The small web app: its run waits for the build's "Do it", said on the desktop while the project page shows
 * the step waiting and then the run going on to done; the built React page runs and responds.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { ReceivedRequest } from "../support/openai-replies.ts"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, submitRegistration, waitForDesktop } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = { displayName: "Sol Scene", handle: "sol", email: "sol@example.org", password: "sol-password-12" }

/** The model's scene: a cube whose update throws on every other frame. */
const flakyScene = `function createScene(THREE, scene, camera, random) {
  const cube = new THREE.Mesh(new THREE.BoxGeometry(2, 2, 2), new THREE.MeshNormalMaterial())
  scene.add(cube)
  camera.position.set(0, 2, 6)
  let calls = 0
  return (time) => {
    calls += 1
    if (calls % 2 === 0) throw new Error("every other frame")
    cube.rotation.y = time
  }
}`

const counterApp = `import { useState } from "react"
export function App() {
  const [count, setCount] = useState(0)
  return <button type="button" onClick={() => setCount(count + 1)}>Counted {count}</button>
}
`

const toolMessages = (request: ReceivedRequest) =>
  (request.body.messages ?? []).filter((message) => message.role === "tool").length
const systemText = (request: ReceivedRequest) =>
  String((request.body.messages ?? []).find((message) => message.role === "system")?.content ?? "")

const firstUserText = (request: ReceivedRequest) =>
  String((request.body.messages ?? []).find((message) => message.role === "user")?.content ?? "")

/**
 * Answers the scene run: the scene skill's model, the artist's two tool calls, the reviewer, and
 * the research step the planner puts first (it saves the file its instruction names).
 */
const scriptSceneRun = (models: OpenAiServer) =>
  models.handle("chat", (request) => {
    if (request.body.response_format?.json_schema?.name === "review")
      return { content: JSON.stringify({ verdict: "pass", notes: "A clear scene." }) }
    if (systemText(request).startsWith("You write one JavaScript function for a three.js"))
      return { content: `\`\`\`js\n${flakyScene}\n\`\`\`` }
    if (/^Task: Build the app/m.test(firstUserText(request))) {
      switch (toolMessages(request)) {
        case 0:
          return {
            toolCalls: [
              { id: "build", name: "code__scaffold_react_node", arguments: { title: "Counter", app: counterApp } }
            ]
          }
        case 1:
          return {
            toolCalls: [
              {
                id: "readme",
                name: "files__write",
                arguments: {
                  path: "apps/README.md",
                  content: "# Counter\n\n## What it does\n\nCounts.\n\n## How to run it\n\nOpen it.\n"
                }
              }
            ]
          }
        default:
          return { content: "The app is built and its README saved." }
      }
    }
    if (!/^Task: Build the scene/m.test(firstUserText(request))) {
      if (toolMessages(request) > 0) return { content: "Saved." }
      const path = /^- Save it as (\S+)\.$/m.exec(firstUserText(request))?.[1] ?? "research.md"
      return {
        toolCalls: [
          {
            id: "research",
            name: "files__write",
            arguments: { path, content: "# Research\n\n## Summary\n\nCubes turn. See https://example.org/cubes.\n" }
          }
        ]
      }
    }
    switch (toolMessages(request)) {
      case 0:
        return {
          toolCalls: [
            {
              id: "scene",
              name: "scene3d__create",
              arguments: { description: "A cube turning in the dark", path: "scene/index.html", title: "Turning cube" }
            }
          ]
        }
      case 1:
        return {
          toolCalls: [
            {
              id: "note",
              name: "files__write",
              arguments: {
                path: "scene/NOTES.md",
                content: "# Turning cube\n\n## What you see\n\nA cube.\n\n## How to look around\n\nMove the mouse.\n"
              }
            }
          ]
        }
      default:
        return { content: "The scene and its note are saved." }
    }
  })

describe("seeded generators previewed through the node", () => {
  let models: OpenAiServer
  let node: RunningNode
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    models = await startOpenAiServer()
    scriptSceneRun(models)
    ;[node, browser] = await Promise.all([
      startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
      launchBrowser({ webgl: true })
    ])
    page = await (await browser.newContext()).newPage()
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await models?.close()
  })

  type Detail = {
    project: { status: string; outputs: Array<{ path: string; url: string; kind: string }> }
    tasks: Array<{ status: string; decisionSignalId: string | null }>
  }
  const finished = (detail: Detail) => ["done", "failed", "cancelled"].includes(detail.project.status)

  /** Starts the seeded generator named `name` as the signed-in owner; waits until `settled` (by default: done). */
  const runSeed = async (name: string, inputs: Record<string, unknown>, settled = finished) => {
    const generators = (await (await page.request.get(`${node.url}/api/studio/generators`)).json()) as Array<{
      id: string
      name: string
    }>
    const generator = generators.find((candidate) => candidate.name === name)!
    const started = await page.request.post(`${node.url}/api/studio/projects`, {
      data: { generatorId: generator.id, inputs }
    })
    expect(started.status()).toBe(200)
    const { id } = (await started.json()) as { id: string }
    let detail: Detail
    for (;;) {
      detail = await (await page.request.get(`${node.url}/api/studio/projects/${id}`)).json()
      if (settled(detail) || finished(detail)) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    if (settled !== finished) return { id, detail }
    const trace = async () =>
      JSON.stringify(await (await page.request.get(`${node.url}/api/studio/projects/${id}/trace`)).json()).slice(
        0,
        3000
      )
    expect(detail.project.status, detail.project.status === "done" ? "" : await trace()).toBe("done")
    return { id, detail }
  }

  test("the 3D scene seed runs to done, and its scene draws offline from the node's copy of three.js", async () => {
    await page.goto(node.registerLink)
    await submitRegistration(page, owner)
    await waitForDesktop(page, owner)

    const { detail } = await runSeed("3D scene", { description: "A cube turning in the dark", title: "Turning cube" })
    const scene = detail.project.outputs.find((output) => output.path === "scene/index.html")!
    expect(scene).toMatchObject({ kind: "html" })

    // Offline: the CDN cannot be reached; only the node's own copy can serve the import.
    const cdn: Array<string> = []
    await page.context().route("https://cdn.jsdelivr.net/**", (route) => {
      cdn.push(route.request().url())
      return route.abort()
    })
    const three = page.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/vendor/three@0.170.0/three.module.js"
    )
    const answer = await page.goto(`${node.url}${scene.url}`)
    expect(answer?.headers()["content-security-policy"]).toBe("sandbox allow-scripts")
    expect((await three).status()).toBe(200)
    await page.locator("#hud strong").filter({ hasText: "Turning cube" }).waitFor()
    await page
      .locator("#hud-error")
      .filter({ hasText: /update failed \d+×: every other frame/ })
      .waitFor()
    await page.waitForFunction(() => Number(document.body.dataset.frames) > 30)
    // Still drawing after the errors: the loop outlives its update.
    const frames = Number(await page.evaluate(() => document.body.dataset.frames))
    await page.waitForFunction((seen) => Number(document.body.dataset.frames) > seen + 10, frames)
    await page.mouse.move(10, 10)
    expect(cdn).toEqual([])
  })

  test("the small web app's run waits for its build; approved on the desktop, the project page sees it go on to done and the built page runs", async () => {
    const waiting = (detail: Detail) => detail.tasks.some((task) => task.status === "waiting")
    const { id, detail } = await runSeed(
      "Small web app",
      { appName: "Counter", idea: "A button that counts its clicks." },
      waiting
    )
    const signalId = detail.tasks.find((task) => task.status === "waiting")!.decisionSignalId!
    await page.goto(`${node.url}/studio/${id}`)
    const step = page.locator("project-place li.step").filter({ hasText: "Build the app Counter" })
    await step.getByText("Awaits your approval").waitFor()
    const link = step.getByRole("link", { name: "decide on your desktop" })
    expect(await link.getAttribute("href")).toBe(`/?signal=${signalId}`)

    // The desktop in a second tab, the project page left open in the first.
    const desktop = await page.context().newPage()
    await desktop.goto(`${node.url}/?signal=${signalId}`)
    await desktop
      .locator(`desktop-signals li.signal[data-signal-id="${signalId}"]`)
      .getByRole("button", { name: "Do it" })
      .click()
    await page.locator(`project-place .status[data-status="done"]`).waitFor({ timeout: 20_000 })
    await step.getByText("Done").waitFor()
    await desktop.close()

    await page.goto(`${node.url}/api/files/project/${id}/apps/web/dist/index.html`)
    const button = page.getByRole("button", { name: "Counted 0" })
    await button.click()
    await page.getByRole("button", { name: "Counted 1" }).waitFor()
    expect(await page.title()).toBe("Counter")
  })
})

/**
 * A plugin's generator, widget, viewer and editor in the browser, at desktop and phone width: the
 * owner installs the Notebook example; the studio's gallery shows its generator marked with the
 * plugin and starts a project from it; the desktop's "Add a widget" adds its widget, which draws
 * in a frame sandboxed to scripts only and talks through the bridge; a project's Markdown output
 * opens with its viewer (the file's text inside the frame) and with its editor, which saves.
 */
import Database from "better-sqlite3"
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Frame, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { logIn, openFromRail, type Person, registerThroughApi } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const example = join(import.meta.dirname, "..", "..", "examples", "plugins", "notebook")

const widths = [
  { name: "desktop", viewport: { width: 1280, height: 900 } },
  { name: "phone", viewport: { width: 390, height: 844 } }
] as const

/** The frame inside `host` once its document has loaded. */
const frameIn = async (host: Locator): Promise<Frame> => {
  const iframe = host.locator("iframe")
  await iframe.waitFor()
  const frame = await (await iframe.elementHandle())!.contentFrame()
  await frame!.waitForLoadState("load")
  return frame!
}

describe("a plugin's generator, widget, viewer and editor in the browser", () => {
  let node: RunningNode
  let browser: Browser
  let pluginDir: string
  let dataDir: string

  beforeAll(async () => {
    pluginDir = await mkdtemp(join(tmpdir(), "node-e2e-plugins-"))
    dataDir = await mkdtemp(join(tmpdir(), "node-e2e-kinds-"))
    await cp(example, join(pluginDir, "notebook"), { recursive: true })
    ;[node, browser] = await Promise.all([
      startNode({ env: { PLUGIN_DIR: pluginDir, DATA_DIR: dataDir } }),
      launchBrowser()
    ])
    const registered = await registerThroughApi(node.url, owner, node.ownerCode)
    const cookie = registered.headers
      .getSetCookie()
      .map((line) => line.split(";")[0])
      .join("; ")
    const installed = await fetch(`${node.url}/api/plugins`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ dir: "notebook", granted: ["filesystem", "storage"] })
    })
    if (installed.status !== 200)
      throw new Error(`installing the notebook failed: ${installed.status} ${await installed.text()}`)
  })
  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await rm(pluginDir, { recursive: true, force: true })
    await rm(dataDir, { recursive: true, force: true })
  })

  const signedIn = async (viewport: { width: number; height: number }): Promise<Page> => {
    const page = await (await browser.newContext({ viewport })).newPage()
    await logIn(page, node.url, owner)
    return page
  }

  for (const { name, viewport } of widths) {
    test(`the gallery shows the plugin's generator and starts a project from it (${name})`, async () => {
      const page = await signedIn(viewport)
      await openFromRail(page, "Studio")
      const card = page.locator('studio-gallery li[data-slug="notebook-weekly-review"]')
      await card.getByText("From the plugin Notebook").waitFor()
      await card.getByRole("link", { name: "Weekly review" }).click()
      await page.getByRole("heading", { name: "Weekly review", level: 1 }).waitFor()
      const form = page.locator("schema-form")
      await form.getByLabel("This week's notes").fill("Shipped the widget.")
      await form.getByRole("button", { name: "Start the run" }).click()
      await page.waitForURL(/\/studio\/[^/?]+$/)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
    })

    test(`the picker adds the plugin's widget, which renders in its sandboxed frame (${name})`, async () => {
      const page = await signedIn(viewport)
      await page.goto(`${node.url}/`)
      await page.getByRole("button", { name: "Add a widget" }).click()
      await page
        .locator('widget-picker li[data-widget-type="notebook.count"]')
        .getByRole("button", { name: /Notebook count/ })
        .click()
      const widget = page.locator('desktop-place section.widget[data-widget-type="notebook.count"]').last()
      await widget.getByRole("heading", { name: "Notebook count" }).waitFor()
      expect(await widget.locator("iframe").getAttribute("sandbox")).toBe("allow-scripts")
      const frame = await frameIn(widget)
      await frame.getByText(/visits? counted/).waitFor()
      await frame.getByRole("button", { name: "Count a visit" }).click()
      await frame.getByText(/[1-9]\d*\s*visits? counted/).waitFor()
      // Stored: a fresh load shows it on the desktop again.
      await page.reload()
      await page.locator('desktop-place section.widget[data-widget-type="notebook.count"] iframe').first().waitFor()
    })
  }

  test("a project's Markdown output opens in the plugin's viewer and saves from its editor", async () => {
    const page = await signedIn(widths[0].viewport)
    // A project of the owner's with one output, as a finished run leaves it.
    const projectId = await page.evaluate(async () => {
      const answer = await fetch("/api/studio/projects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ brief: "Keep a plan" })
      })
      return ((await answer.json()) as { id: string }).id
    })
    const workspace = join(dataDir, "files", "projects", projectId, "workspace")
    await mkdir(workspace, { recursive: true })
    await writeFile(join(workspace, "plan.md"), "# Plan\n\nShip the viewer.\n")
    const db = new Database(join(dataDir, "node.db"))
    db.prepare(
      "INSERT INTO project_outputs (id, project_id, task_id, kind, name, path, size, preview_url) VALUES (?, ?, NULL, 'markdown', 'plan.md', 'plan.md', 25, NULL)"
    ).run(`out-${projectId}`, projectId)
    db.close()

    await page.goto(`${node.url}/studio/${projectId}`)
    const output = page.locator('project-outputs li.output[data-path="plan.md"]')
    await output.getByRole("button", { name: /Open with Notebook preview/ }).click()
    const viewer = await frameIn(page.locator("open-with dialog framed-document"))
    await viewer.getByText("Ship the viewer.").waitFor()
    await page.locator("open-with dialog").getByRole("button", { name: "Close" }).click()

    await output.getByRole("button", { name: /Open with Notebook editor/ }).click()
    const editor = await frameIn(page.locator("open-with dialog framed-document"))
    await expect.poll(() => editor.getByLabel("File content").inputValue()).toContain("Ship the viewer.")
    await editor.getByLabel("File content").fill("# Plan\n\nShipped.\n")
    await editor.getByRole("button", { name: "Save" }).click()
    await editor.getByText(/^Saved \(\d+ bytes\)\.$/).waitFor()
    expect(await readFile(join(workspace, "plan.md"), "utf8")).toBe("# Plan\n\nShipped.\n")
  })
})

/**
 * The README's "Without a model key", step by step: `npm run models:scripted` in one process,
 * `npm start` in another with the setting the first printed, the owner registered from the link
 * the node printed, and a seeded generator (Research brief) filled in and started from the Studio
 * in Chromium. The project's page follows the run to done, each step's deliverable passing its
 * checks. Nothing is scripted per test: the server's demo mode answers whatever the run asks.
 *
 * The one departure from the README: the scripted server gets `--port 0` and the node a fresh
 * DATA_DIR and PORT=0, so the test runs beside a reader's own node, or another test run.
 */
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, submitRegistration, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode, stopGroup } from "./node-host.ts"

const repoRoot = fileURLToPath(new URL("../..", import.meta.url))

const newcomer: Person = {
  displayName: "Nora Newcomer",
  handle: "nora",
  email: "nora@example.org",
  password: "nora-password-1"
}

interface ScriptedModels {
  /** What the server printed for the node: `NAME=value` settings, before `npm start`. */
  readonly settings: Readonly<Record<string, string>>
  readonly stop: () => Promise<void>
}

/** `npm run models:scripted`, resolved once it has printed how to start the node beside it. */
const startScriptedModels = (): Promise<ScriptedModels> =>
  new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "models:scripted", "--", "--port", "0"], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    const printed: Array<string> = []
    const stop = () => (child.pid === undefined ? Promise.resolve() : stopGroup(child.pid))
    createInterface({ input: child.stdout! }).on("line", (line) => {
      printed.push(line)
      const command = /^Run the node beside it: (.*) npm start$/.exec(line)?.[1]
      if (command === undefined) return
      const settings = Object.fromEntries(
        command.split(/\s+/).map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)])
      )
      resolve({ settings, stop })
    })
    child.once("exit", (code) => reject(new Error(`npm run models:scripted exited (${code}):\n${printed.join("\n")}`)))
  })

describe("the keyless path of the README", () => {
  let models: ScriptedModels
  let node: RunningNode
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    models = await startScriptedModels()
    expect(Object.keys(models.settings)).toEqual(["LLM_BASE_URL"])
    ;[node, browser] = await Promise.all([
      startNode({ command: ["npm", "start"], env: models.settings }),
      launchBrowser()
    ])
    page = await (await browser.newContext()).newPage()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await models?.stop()
  })

  test("registers from the printed link, starts a Research brief from the Studio, and watches it reach done with its checks passing", async () => {
    const breakage = watchForBreakage(page)
    await page.goto(node.registerLink)
    await expect.poll(() => page.getByLabel("Access code").inputValue()).toBe(node.ownerCode)
    await submitRegistration(page, newcomer)
    await waitForDesktop(page, newcomer)

    await rail(page).getByRole("link", { name: "Studio" }).click()
    await page
      .locator('studio-gallery li[data-slug="research-brief"]')
      .getByRole("link", { name: "Research brief" })
      .click()
    await page.getByRole("heading", { name: "Research brief", level: 1 }).waitFor()
    const form = page.locator("schema-form")
    await form.getByLabel("Topic").fill("Home batteries for a small house")
    await form.getByRole("button", { name: "Start the run" }).click()
    await page.waitForURL(/\/studio\/[^/?]+$/)

    const project = page.locator("project-place")
    await project.locator('.status[data-status="done"]').waitFor({ timeout: 60_000 })

    // Both steps done, each having saved its file; no step failed.
    const steps = page.locator("project-plan li.step")
    expect(await steps.locator(".title").allTextContents()).toEqual([
      "Research Home batteries for a small house",
      "Write the brief on Home batteries for a small house"
    ])
    expect(await steps.evaluateAll((items) => items.map((item) => item.getAttribute("data-state")))).toEqual([
      "done",
      "done"
    ])
    expect(await steps.nth(0).locator(".saved").innerText()).toMatch(/^Saved research\/notes\.md · \d+ words$/)
    expect(await steps.nth(1).locator(".saved").innerText()).toMatch(/^Saved brief\.md · \d+ words$/)
    expect(await steps.locator(".error").count()).toBe(0)

    // The trace: the research searched, every deliverable passed its checks, none failed them.
    const trace = page.locator("project-trace")
    await trace.locator('li.event[data-kind="tool.call"]').filter({ hasText: "calls web.search" }).first().waitFor()
    const passed = trace.locator('li.event[data-kind="output"]').filter({ hasText: "Deliverable passed its checks" })
    await expect
      .poll(() => passed.allTextContents())
      .toEqual([expect.stringContaining("research/notes.md"), expect.stringContaining("brief.md")])
    expect(await trace.locator("li.event").filter({ hasText: "Deliverable failed its checks" }).count()).toBe(0)

    // The reviewer's verdict, and the files under Outputs.
    await project.locator('.review[data-verdict="pass-with-notes"]').waitFor()
    expect(
      await page
        .locator("project-outputs li.output")
        .evaluateAll((items) => items.map((item) => item.getAttribute("data-path")))
    ).toEqual(["brief.md", "research/notes.md"])
    expect(breakage).toEqual([])
  })
})

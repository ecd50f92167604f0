/**
 * The README's "Without a model key", step by step: `npm run demo` (the node with its built-in
 * demo models bound to every tier), the owner registered from the link the node printed, the demo
 * banner on the pages, and a seeded generator (Research brief) filled in and started from the
 * Studio in Chromium. The project's page follows the run to done, each step's deliverable passing
 * its checks. Nothing is scripted per test: the demo models answer whatever the run asks. Then
 * Settings → Models as the owner uses it: a provider added (a scripted OpenAI-protocol server),
 * checked (its models listed), every tier bound to it, the banner gone, and a generator run to done
 * on it, its calls reaching the provider.
 *
 * The one departure from the README: the node gets a fresh DATA_DIR and PORT=0, so the test runs
 * beside a reader's own node, or another test run.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { modelTiers } from "../../extensions/models/contract/records.ts"
import { startOpenAiServer, type OpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, submitRegistration, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const newcomer: Person = {
  displayName: "Nora Newcomer",
  handle: "nora",
  email: "nora@example.org",
  password: "nora-password-1"
}

/** Starts a Research brief from the Studio and waits for its project page to say done. */
const runResearchBrief = async (page: Page, topic: string) => {
  await rail(page).getByRole("link", { name: "Studio" }).click()
  await page
    .locator('studio-gallery li[data-slug="research-brief"]')
    .getByRole("link", { name: "Research brief" })
    .click()
  await page.getByRole("heading", { name: "Research brief", level: 1 }).waitFor()
  const form = page.locator("schema-form")
  await form.getByLabel("Topic").fill(topic)
  await form.getByRole("button", { name: "Start the run" }).click()
  await page.waitForURL(/\/studio\/[^/?]+$/)
  await page.locator("project-place").locator('.status[data-status="done"]').waitFor({ timeout: 60_000 })
}

const banner = (page: Page) => page.locator("demo-banner").getByRole("note")

describe("the keyless path of the README", () => {
  let node: RunningNode
  let provider: OpenAiServer
  let browser: Browser
  let page: Page

  beforeAll(async () => {
    ;[node, browser, provider] = await Promise.all([
      startNode({ command: ["npm", "run", "demo"] }),
      launchBrowser(),
      startOpenAiServer({ demo: true })
    ])
    page = await (await browser.newContext()).newPage()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await provider?.close()
  })

  test("registers from the printed link, starts a Research brief from the Studio, and watches it reach done with its checks passing", async () => {
    const breakage = watchForBreakage(page)
    await page.goto(node.registerLink)
    await expect.poll(() => page.getByLabel("Access code").inputValue()).toBe(node.ownerCode)
    await submitRegistration(page, newcomer)
    await waitForDesktop(page, newcomer)
    await expect.poll(() => banner(page).textContent()).toContain("Demo models write placeholder text.")
    // The owner's first steps: a model is bound (the demo models), nothing else done yet.
    const firstSteps = page.locator("first-steps")
    await expect.poll(() => firstSteps.getByText("Done: Connect a model").count()).toBe(1)
    await firstSteps.getByRole("link", { name: "Run a first generator" }).waitFor()

    await runResearchBrief(page, "Home batteries for a small house")
    const project = page.locator("project-place")

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

  test("Settings → Models: adds a provider, checks it, binds every tier to it, and runs a generator there", async () => {
    const breakage = watchForBreakage(page)
    await page.goto(`${node.url}/settings?section=models`)
    const providers = page.locator("settings-model-providers")
    const add = providers.getByRole("form", { name: "Add a provider" })
    await add.getByLabel("Name").fill("Scripted")
    await add.getByLabel("Base URL").fill(provider.baseUrl)
    await add.getByRole("button", { name: "Add provider" }).click()
    await providers.getByText("Scripted is added.").waitFor()
    await providers.getByRole("button", { name: "Check Scripted" }).click()
    await providers.getByText(/Scripted answered in \d+ ms with \d+ models?\./).waitFor()
    await providers.getByText(/Models: .*scripted-model/).waitFor()

    const tiers = page.locator("settings-model-tiers")
    for (const tier of modelTiers) {
      const form = tiers.getByRole("form", { name: `Bind the ${tier} tier` })
      await form.getByLabel("Provider").selectOption({ label: "Scripted" })
      await form.getByLabel("Model", { exact: true }).fill("scripted-model")
      await form.getByRole("button", { name: `Bind ${tier}` }).click()
      await tiers.getByText(`The ${tier} tier now calls scripted-model.`).waitFor()
    }
    // Nothing is on the demo models any more: the banner is gone, on this page and the next.
    await expect.poll(() => page.locator("demo-banner").getByRole("note").count()).toBe(0)

    const before = provider.requestsFor("chat").length
    await runResearchBrief(page, "Heat pumps in old houses")
    await page.locator("project-place").locator('.review[data-verdict="pass-with-notes"]').waitFor()
    expect(provider.requestsFor("chat").length).toBeGreaterThan(before)
    expect(await page.locator("demo-banner").getByRole("note").count()).toBe(0)
    expect(breakage).toEqual([])
  })
})

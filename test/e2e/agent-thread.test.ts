/**
 * A project's agent thread in Chromium, at a desktop's and a phone's width: a run against the
 * scripted model server writes its notes (the plan, each task finished, the review's verdict, the
 * end) into a thread named after the project; /messages lists it as read-only, and the open
 * thread shows the notes with no composer.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type OpenAiServer, startOpenAiServer } from "../support/openai-server.ts"
import { launchBrowser } from "./browser.ts"
import { openFromRail, type Person, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { Gate, scriptTeam } from "./scripted-team.ts"

const olive: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

describe("an agent thread", () => {
  let models: OpenAiServer
  let node: RunningNode
  let browser: Browser
  let session = ""
  let title = ""

  beforeAll(async () => {
    models = await startOpenAiServer()
    scriptTeam(models, { agents: new Gate(), reviewer: new Gate() })
    ;[node, browser] = await Promise.all([
      startNode({ env: { LLM_BASE_URL: models.baseUrl, LLM_API_KEY: "sk-test-e2e", LLM_LOCAL: "false" } }),
      launchBrowser()
    ])
    const registered = await registerThroughApi(node.url, olive, node.ownerCode)
    session = registered.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("svc_session="))!
      .split(";")[0]!
      .slice("svc_session=".length)
    const headers = { "content-type": "application/json", cookie: `svc_session=${session}` }
    const started = await fetch(`${node.url}/api/studio/projects`, {
      method: "POST",
      headers,
      body: JSON.stringify({ brief: "Write up the tea tasting notes" })
    })
    const project = (await started.json()) as { id: string; title: string }
    title = project.title
    // The run's own end: the project's page would show it; here its status is read until it is over.
    for (const deadline = Date.now() + 60_000; ; ) {
      const detail = (await (await fetch(`${node.url}/api/studio/projects/${project.id}`, { headers })).json()) as {
        project: { status: string }
      }
      if (detail.project.status === "done") break
      if (["failed", "cancelled"].includes(detail.project.status) || Date.now() > deadline)
        throw new Error(`the run ended ${detail.project.status}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
    await models?.close()
  })

  for (const [width, height] of [
    [1280, 800],
    [390, 844]
  ] as const) {
    test(`is in the inbox, read-only, its notes shown without a composer (${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height }, locale: "en-GB" })
      await context.addCookies([{ name: "svc_session", value: session, url: node.url }])
      const page = await context.newPage()
      const problems = watchForBreakage(page)
      await page.goto(`${node.url}/`)
      await openFromRail(page, "Messages")
      await page.getByRole("heading", { name: "Messages", level: 1 }).waitFor()
      const item = page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: title })
      await expect.poll(() => item.textContent(), { timeout: 10_000 }).toContain("Read-only")
      expect(await item.textContent()).toContain("The project is done.")
      await item.click()
      await page.getByRole("heading", { name: title, level: 2 }).waitFor()
      const notes = page.locator("thread-conversation li.message")
      await expect.poll(() => notes.first().textContent()).toContain("The plan:")
      await expect.poll(() => notes.last().textContent()).toContain("The project is done.")
      expect((await notes.allTextContents()).join("\n")).toMatch(/finished "/)
      expect(await page.getByRole("textbox", { name: "Message" }).count()).toBe(0)
      expect(await page.getByRole("form", { name: "Write a message" }).count()).toBe(0)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
      expect(problems).toEqual([])
      await context.close()
    })
  }
})

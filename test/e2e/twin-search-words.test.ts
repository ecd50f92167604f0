/**
 * The twin's search in the browser on a node whose embed tier is unbound: it searches by words
 * and says so, with how many memories are embedded.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { registerThroughApi } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"
import { owner } from "./flows.ts"

describe("the twin's search without an embed tier", () => {
  let node: RunningNode
  let browser: Browser

  beforeAll(async () => {
    // The embed tier on a server of its own with no key of its own: unbound, so search goes by words.
    ;[node, browser] = await Promise.all([
      startNode({ env: { LLM_EMBED_BASE_URL: "https://embeddings.example.net/v1", LLM_LOCAL: "false" } }),
      launchBrowser()
    ])
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
  })

  test("says it searched by words only, with the coverage", async () => {
    const registered = await registerThroughApi(node.url, owner, node.ownerCode)
    const [pair] = registered.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("svc_session="))!
      .split(";")
    const context = await browser.newContext()
    await context.addCookies([{ name: "svc_session", value: pair.slice("svc_session=".length), url: node.url }])
    const page = await context.newPage()
    await page.goto(`${node.url}/twin`)
    const memories = page.locator("twin-memories")
    await memories.getByLabel("What to remember").fill("The spare key is under the blue pot")
    await memories.getByRole("button", { name: "Remember" }).click()
    await memories.getByText("Remembered.").waitFor()
    expect(await memories.getByRole("note").count()).toBe(0)
    await page.getByRole("searchbox", { name: "Search memories" }).pressSequentially("key")
    const note = memories.getByRole("note")
    await expect
      .poll(() => note.textContent())
      .toMatch(/Searched by words only[\s\S]*Search by meaning is off[\s\S]*0 of 1 memory is embedded/)
    await memories.locator("li.memory", { hasText: "The spare key is under the blue pot" }).waitFor()
    await context.close()
  })
})

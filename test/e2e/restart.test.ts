/**
 * A node that restarts under an open tab: the sections that failed while it was away recover by
 * themselves once it is back (the gallery retries with backoff), and the live channel reconnects,
 * with no reload and no click.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

describe("a node restarting under an open tab", () => {
  let node: RunningNode
  let browser: Browser

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
  })

  afterAll(async () => {
    await browser?.close()
    await node?.stop()
  })

  test("the gallery that failed while the node was down shows the generators once it is back", async () => {
    const register = await fetch(`${node.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...owner, accessCode: node.ownerCode })
    })
    expect(register.status).toBe(200)
    const [pair] = register.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("svc_session="))!
      .split(";")
    const context = await browser.newContext()
    await context.addCookies([{ name: "svc_session", value: pair.slice(pair.indexOf("=") + 1), url: node.url }])
    const page = await context.newPage()
    const breakage = watchForBreakage(page)
    await page.goto(`${node.url}/`)
    await waitForDesktop(page, owner)
    await page.locator('node-rail .live[data-state="live"]').waitFor()
    // The studio's code is fetched while the node is up (places load on demand), then the person
    // goes back to the desktop: what fails while the node is down is the gallery's data, not its code.
    await rail(page).getByRole("link", { name: "Studio" }).click()
    await page.locator("studio-gallery li.generator").first().waitFor()
    await rail(page).getByRole("link", { name: "Desktop" }).click()
    await waitForDesktop(page, owner)

    await node.halt()
    await page.locator('node-rail .live[data-state="reconnecting"]').waitFor()
    await rail(page).getByRole("link", { name: "Studio" }).click()
    const gallery = page.locator("studio-gallery")
    await gallery.getByRole("alert").filter({ hasText: "The node did not answer." }).waitFor()
    expect(await gallery.locator("li.generator").count()).toBe(0)

    await node.restart()
    await gallery.locator('li[data-slug="blog-post"]').waitFor({ timeout: 20_000 })
    await expect.poll(() => gallery.getByRole("alert").count()).toBe(0)
    await page.locator('node-rail .live[data-state="live"]').waitFor({ timeout: 30_000 })
    expect(new URL(page.url()).pathname).toBe("/studio")
    expect(breakage).toEqual([])
  })
})

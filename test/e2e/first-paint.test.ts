/**
 * The first paint fetches the shell and the open place only: a signed-in owner opening / loads
 * the shell's files and the desktop's chunk, and no other place's; the studio's chunk comes
 * when the studio first opens. A place whose chunk fails to load says so and loads when tried
 * again. The build's stamp (ui/dist/build-stamp.json) names each place's chunk.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { BuildStamp } from "../../ui/build-stamp.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const stamp = JSON.parse(
  readFileSync(join(fileURLToPath(new URL("../../ui/dist", import.meta.url)), "build-stamp.json"), "utf8")
) as BuildStamp

/** The build's files this page asked the node for, as `assets/<name>`. */
const assetRequests = (page: Page): ReadonlyArray<string> => {
  const requested: Array<string> = []
  page.on("request", (request) => {
    const path = new URL(request.url()).pathname
    if (path.startsWith("/assets/")) requested.push(path.slice(1))
  })
  return requested
}

const placeChunks = (except: string) =>
  Object.entries(stamp.places)
    .filter(([place]) => place !== except)
    .map(([, file]) => file)

describe("the first paint", () => {
  let node: RunningNode
  let browser: Browser
  let context: BrowserContext

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    context = await browser.newContext()
    const registered = await context.request.post(`${node.url}/api/auth/register`, {
      data: { ...owner, accessCode: node.ownerCode }
    })
    expect(registered.status()).toBe(200)
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await node?.stop()
  })

  test("/ loads the shell and the desktop's chunk, no other place's; the studio's comes when it opens", async () => {
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    const requested = assetRequests(page)
    await page.goto(`${node.url}/`)
    await waitForDesktop(page, owner)

    expect(requested).toContain(stamp.entry)
    expect(requested).toContain(stamp.stylesheet)
    expect(requested).toContain(stamp.places.desktop)
    expect(requested.filter((file) => placeChunks("desktop").includes(file))).toEqual([])

    await rail(page).getByRole("link", { name: "Studio" }).click()
    await page.locator("studio-place").waitFor()
    expect(requested).toContain(stamp.places.studio)
    expect(requested.filter((file) => placeChunks("desktop").includes(file))).toEqual([stamp.places.studio])
    expect(problems).toEqual([])
    await page.close()
  })

  test("a place whose chunk does not load says so, and opens when tried again", async () => {
    const page = await context.newPage()
    const chunk = `${node.url}/${stamp.places.settings}`
    await page.route(chunk, (route) => route.abort("connectionreset"))
    await page.goto(`${node.url}/settings`)
    const alert = page.locator("node-app node-alert").filter({ hasText: "This page could not be loaded" })
    await alert.waitFor()
    expect(await page.locator("settings-place").count()).toBe(0)

    await page.unroute(chunk)
    await page.getByRole("button", { name: "Try again" }).click()
    await page.locator("settings-place").waitFor()
    expect(await alert.count()).toBe(0)
    await page.close()
  })
})

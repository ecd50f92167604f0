/**
 * Three real nodes: D runs as a directory, A and B register with it. On a desktop and at a
 * phone's width, Settings → Federation on A shows where A is listed (its owner's handle, the
 * directory's pinned did) and adds B by its owner's handle: B shows verified among the peers
 * (B's owner added A first). At the phone's width, adding it again says it is a peer already.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, openFromRail, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const ada: Person = { displayName: "Ada Owner", handle: "ada", email: "ada@example.org", password: "ada-password-1" }
const bo: Person = { displayName: "Bo Owner", handle: "bobo", email: "bo@example.org", password: "bo-password-1" }

const cookieOf = (response: globalThis.Response): string =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ")

const call = async (url: string, cookie: string, method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${await answer.text()}`)
  return answer.json() as Promise<Record<string, unknown>>
}

const viewports = [
  ["desktop", { width: 1280, height: 900 }],
  ["phone", { width: 390, height: 844 }]
] as const

describe("the directory in the browser", () => {
  let d: RunningNode
  let a: RunningNode
  let b: RunningNode
  let browser: Browser
  let adaCookie: string
  let didB: string

  beforeAll(async () => {
    ;[d, browser] = await Promise.all([startNode({ env: { FEDERATION_DIRECTORY: "true" } }), launchBrowser()])
    ;[a, b] = await Promise.all([
      startNode({ env: { DIRECTORY_ENDPOINT: d.url } }),
      startNode({ env: { DIRECTORY_ENDPOINT: d.url } })
    ])
    adaCookie = cookieOf(await registerThroughApi(a.url, ada, a.ownerCode))
    const boCookie = cookieOf(await registerThroughApi(b.url, bo, b.ownerCode))
    const didA = String((await call(a.url, adaCookie, "GET", "/api/federation/me")).nodeDid)
    didB = String((await call(b.url, boCookie, "GET", "/api/federation/me")).nodeDid)
    await call(b.url, boCookie, "POST", "/api/federation/peers", { nodeDid: didA, endpoint: a.url, name: "Ada's node" })
    // Both owners exist now: list their handles at once rather than on the loop's next pass.
    await Promise.all([
      call(a.url, adaCookie, "POST", "/api/directory/register"),
      call(b.url, boCookie, "POST", "/api/directory/register")
    ])
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([a?.stop(), b?.stop(), d?.stop()])
  })

  for (const [width, viewport] of viewports) {
    test(`Settings → Federation shows the listing and adds a peer by handle (${width})`, async () => {
      const context = await browser.newContext({ viewport, locale: "en-GB" })
      const [name, value] = adaCookie.split("=") as [string, string]
      await context.addCookies([{ name, value, url: a.url }])
      const page = await context.newPage()
      const problems = watchForBreakage(page)
      await page.goto(a.url)
      await openFromRail(page, "Settings")
      await page
        .getByRole("navigation", { name: "Settings sections" })
        .getByRole("link", { name: "Federation" })
        .click()
      const directory = page.getByRole("region", { name: "Directory" })
      await expect.poll(() => directory.locator(".directory-listing").textContent()).toContain("Listed as ada")
      await directory.getByLabel("Handle").fill("bobo")
      await directory.getByRole("button", { name: "Find and add" }).click()
      if (width === "desktop") {
        await directory.getByText(/bobo is added and verified/).waitFor()
        const row = page.getByRole("region", { name: "Peers" }).locator(`tr.peer[data-did="${didB}"]`)
        await expect.poll(() => row.locator(".peer-status").textContent(), { timeout: 15_000 }).toBe("Verified")
      } else {
        await directory.getByText(/a peer already/).waitFor()
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width)
      expect(problems).toEqual([])
      await context.close()
    })
  }
})

/**
 * The relay section of Settings → Federation, at desktop and phone width, on two real nodes: R
 * runs as a relay (FEDERATION_RELAY) with no relay of its own, so its owner reads that none is set
 * and which setting sets one; C is reached through R (SVC_RELAY_ENDPOINT), and once R's owner has
 * added C, C's owner presses "Enrol now" and sees it enrolled, with R's did pinned.
 */
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, call, cookieOf, registerThroughApi, viewports, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const rita: Person = {
  displayName: "Rita Relay",
  handle: "rita",
  email: "rita@example.org",
  password: "rita-password-1"
}
const cara: Person = {
  displayName: "Cara Owner",
  handle: "cara",
  email: "cara@example.org",
  password: "cara-password-1"
}

describe("the relay section of Settings → Federation", () => {
  let r: RunningNode
  let c: RunningNode
  let browser: Browser
  let ritaCookie: string
  let caraCookie: string
  let didR: string

  beforeAll(async () => {
    r = await startNode({ env: { FEDERATION_RELAY: "true" } })
    ;[c, browser] = await Promise.all([startNode({ env: { SVC_RELAY_ENDPOINT: r.url } }), launchBrowser()])
    ritaCookie = cookieOf(await registerThroughApi(r.url, rita, r.ownerCode))
    caraCookie = cookieOf(await registerThroughApi(c.url, cara, c.ownerCode))
    didR = String((await call(r.url, ritaCookie, "GET", "/api/federation/me")).nodeDid)
    const didC = String((await call(c.url, caraCookie, "GET", "/api/federation/me")).nodeDid)
    // A relay enrols only the nodes its owner added.
    await call(r.url, ritaCookie, "POST", "/api/federation/peers", {
      nodeDid: didC,
      endpoint: c.url,
      name: "Cara's node"
    })
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([r?.stop(), c?.stop()])
  })

  const openRelay = async (node: RunningNode, cookie: string, viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ viewport })
    const [name, value] = cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: node.url }])
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${node.url}/settings`)
    await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Federation" }).click()
    return { page, problems, section: page.locator("settings-federation-relay") }
  }

  for (const [width, viewport] of viewports) {
    test(`says no relay is set when SVC_RELAY_ENDPOINT is unset (${width})`, async () => {
      const { page, problems, section } = await openRelay(r, ritaCookie, viewport)
      await section.getByText("No relay is set.").waitFor()
      expect(await section.locator("code").textContent()).toBe("SVC_RELAY_ENDPOINT")
      expect(await section.getByRole("button", { name: "Enrol now" }).count()).toBe(0)
      expect(problems).toEqual([])
      await page.context().close()
    })

    test(`enrols at the relay on "Enrol now": enrolled, the relay's did shown (${width})`, async () => {
      const { page, problems, section } = await openRelay(c, caraCookie, viewport)
      const relay = section.locator("dl.relay")
      await relay.waitFor()
      expect(await relay.locator("dd").first().textContent()).toBe(r.url)
      await section.getByRole("button", { name: "Enrol now" }).click()
      await section.getByText("Enrolled: 0 messages waiting.").waitFor()
      await relay.locator("dd.did").getByText(didR, { exact: true }).waitFor()
      await relay.getByText(/^Yes, until /).waitFor()
      expect(problems).toEqual([])
      await page.context().close()
    })
  }
})

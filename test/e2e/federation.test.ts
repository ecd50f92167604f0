/**
 * Two real nodes, two owners. On a desktop and at a phone's width: Settings → Federation shows
 * this node's did and adds the other node as a peer, which shows verified (the other owner added
 * this node first); a peer is removed after a confirmation, saying how many conversations lose
 * it. In /messages the owner starts a conversation with the other owner by did, on that peer;
 * it is marked federated in the inbox, and a message sent in it shows queued, then delivered
 * once the courier ran. A post on the other node's square, published to this one, shows in
 * /world as it arrives, marked with the node it came from.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, call, cookieOf, openFromRail, registerThroughApi, viewports, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const ada: Person = { displayName: "Ada Owner", handle: "ada", email: "ada@example.org", password: "ada-password-1" }
const bo: Person = { displayName: "Bo Owner", handle: "bobo", email: "bo@example.org", password: "bo-password-1" }

describe("federation in the browser", () => {
  let a: RunningNode
  let b: RunningNode
  let browser: Browser
  let adaCookie: string
  let didA: string
  let didB: string
  let boDid: string
  let boCookie: string

  beforeAll(async () => {
    ;[a, b, browser] = await Promise.all([startNode(), startNode(), launchBrowser()])
    adaCookie = cookieOf(await registerThroughApi(a.url, ada, a.ownerCode))
    boCookie = cookieOf(await registerThroughApi(b.url, bo, b.ownerCode))
    didA = String((await call(a.url, adaCookie, "GET", "/api/federation/me")).nodeDid)
    const boMe = await call(b.url, boCookie, "GET", "/api/federation/me")
    ;[didB, boDid] = [String(boMe.nodeDid), String(boMe.did)]
    // Bo's owner adds Ada's node first, so Ada's handshake with it is answered.
    await call(b.url, boCookie, "POST", "/api/federation/peers", { nodeDid: didA, endpoint: a.url, name: "Ada's node" })
  })

  afterAll(async () => {
    await browser?.close()
    await Promise.all([a?.stop(), b?.stop()])
  })

  const open = async (
    viewport: { width: number; height: number },
    path: string
  ): Promise<{ page: Page; context: BrowserContext; problems: ReadonlyArray<string> }> => {
    const context = await browser.newContext({ viewport, locale: "en-GB" })
    const [name, value] = adaCookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: a.url }])
    const page = await context.newPage()
    const problems = watchForBreakage(page)
    await page.goto(`${a.url}${path}`)
    return { page, context, problems }
  }

  const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

  for (const [width, viewport] of viewports) {
    test(`Settings → Federation adds a peer and shows its status (${width})`, async () => {
      const { page, context, problems } = await open(viewport, "/")
      await openFromRail(page, "Settings")
      await page
        .getByRole("navigation", { name: "Settings sections" })
        .getByRole("link", { name: "Federation" })
        .click()
      expect(new URL(page.url()).search).toBe("?section=federation")
      await expect.poll(() => page.locator("settings-federation did-copy code").first().textContent()).toBe(didA)

      const peers = page.getByRole("region", { name: "Peers" })
      if (width === "phone") {
        // The desktop runs added it and talked through it: remove it, after a confirmation (its conversation stays),
        // and add it again.
        await peers.getByRole("button", { name: "Remove Bo's node" }).click()
        await page
          .getByRole("dialog", { name: "Remove Bo's node?" })
          .getByRole("button", { name: "Remove the peer" })
          .click()
        await peers.getByText(/Bo's node is removed; 1 conversation no longer reaches it/).waitFor()
      }
      await peers.getByLabel("Node did").fill(didB)
      await peers.getByLabel("Address").fill(b.url)
      await peers.getByLabel("Name").fill("Bo's node")
      await peers.getByRole("button", { name: "Add peer" }).click()
      const row = peers.locator(`tr.peer[data-did="${didB}"]`)
      await expect.poll(() => row.locator(".peer-status").textContent(), { timeout: 15_000 }).toBe("Verified")
      await peers.getByText(/Bo's node is added and verified/).waitFor()
      expect(await fits(page)).toBeLessThanOrEqual(viewport.width)
      expect(problems).toEqual([])
      await context.close()
    })

    test(`a federated conversation appears in /messages and a sent message shows its state (${width})`, async () => {
      const { page, context, problems } = await open(viewport, "/messages")
      await page.getByRole("heading", { name: "Messages", level: 1 }).waitFor()
      await page.locator('node-rail .live[data-state="live"]').waitFor()
      if (width === "desktop") {
        await page.getByText("Write to someone on another node").click()
        const start = page.getByRole("form", { name: "Start a conversation on another node" })
        await start.getByRole("combobox", { name: "Their node" }).selectOption({ label: "Bo's node" })
        await start.getByLabel("Their did").fill(boDid)
        await start.getByLabel("Call them").fill("Bo")
        await start.getByRole("button", { name: "Start" }).click()
      } else {
        const item = page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: "Bo" })
        await expect.poll(() => item.textContent()).toContain("Federated")
        await item.click()
      }
      await page.getByRole("heading", { name: "Bo", level: 2, exact: true }).waitFor()
      const provenance = page.locator("federated-thread")
      await expect.poll(() => provenance.locator(".remote").textContent()).toContain("Bo's node")
      expect(await provenance.locator("did-copy code").textContent()).toBe(boDid)

      const words = `Hello Bo, from the ${width}.`
      const composer = page.getByRole("textbox", { name: "Message" })
      const states = provenance.getByRole("list", { name: "Where the latest messages stand" }).getByRole("listitem")
      const before = width === "desktop" ? 0 : 1
      await composer.fill(words)
      await composer.press("Enter")
      await expect.poll(() => states.count(), { timeout: 10_000 }).toBe(before + 1)
      const latest = states.first()
      // Queued until the courier runs: its own 30-second loop may have run already.
      expect(["Queued", "Delivered"]).toContain(await latest.locator(".message-state").textContent())
      expect(await latest.textContent()).toContain("You sent")
      expect(await latest.textContent()).toContain("sealed")

      await call(a.url, adaCookie, "POST", "/api/federation/flush")
      await provenance.getByRole("button", { name: "Refresh" }).click()
      await expect.poll(() => latest.locator(".message-state").textContent()).toBe("Delivered")
      expect(await fits(page)).toBeLessThanOrEqual(viewport.width)
      expect(problems).toEqual([])
      await context.close()
    })

    test(`a post from the peer's square shows in /world, live, with where it came from (${width})`, async () => {
      await call(b.url, boCookie, "PATCH", `/api/federation/peers/${didA}`, { publish: true })
      const { page, context, problems } = await open(viewport, "/world")
      await page.getByRole("heading", { name: "The square", level: 2 }).waitFor()
      await page.locator('node-rail .live[data-state="live"]').waitFor()
      const words = `Greetings from Bo's square (${width}).`
      await call(b.url, boCookie, "POST", "/api/beings/square", { content: words })
      await call(b.url, boCookie, "POST", "/api/federation/flush")
      const post = page
        .getByRole("list", { name: "Posts, newest first" })
        .getByRole("listitem")
        .filter({ hasText: words })
      await expect.poll(() => post.locator(".origin").textContent(), { timeout: 10_000 }).toBe("from Bo's node")
      expect(await post.locator(".remote-author").textContent()).toBe(bo.displayName)
      expect(await fits(page)).toBeLessThanOrEqual(viewport.width)
      expect(problems).toEqual([])
      await context.close()
    })
  }
})

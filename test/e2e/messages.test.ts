/**
 * The inbox in Chromium, two beings on one node each in their own browser: the owner starts a
 * direct conversation by picking the other being and writes; the other's open inbox (on a
 * phone's width) gains it live, without a reload, with who answers in it; they answer in the
 * open thread and the owner sees the answer arrive; leaving takes a confirmation and the thread
 * goes from the inbox while the other keeps it. Nothing runs off a 390 px screen.
 */
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const olive: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const mia: Person = { displayName: "Mia Member", handle: "mia", email: "mia@example.org", password: "mia-password-1" }

const sessionOf = (response: globalThis.Response): string => {
  const [pair] = response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")
  return pair!.slice("svc_session=".length)
}

const openMessages = async (context: BrowserContext, url: string): Promise<Page> => {
  const page = await context.newPage()
  await page.goto(`${url}/messages`)
  await page.getByRole("heading", { name: "Messages", level: 1 }).waitFor()
  await page.locator('node-rail .live[data-state="live"]').waitFor()
  await page.getByRole("list", { name: "Conversations" }).waitFor()
  return page
}

const inboxItem = (page: Page, title: string) =>
  page.getByRole("list", { name: "Conversations" }).getByRole("link").filter({ hasText: title })

const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth)

describe("the inbox", () => {
  let node: RunningNode
  let browser: Browser
  let oliveContext: BrowserContext
  let miaContext: BrowserContext

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    const oliveSession = sessionOf(await registerThroughApi(node.url, olive, node.ownerCode))
    const minted = await fetch(`${node.url}/api/auth/codes`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `svc_session=${oliveSession}` },
      body: JSON.stringify({ count: 1 })
    })
    const [code] = (await minted.json()) as Array<{ code: string }>
    const miaSession = sessionOf(await registerThroughApi(node.url, mia, code!.code))
    oliveContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: "en-GB" })
    miaContext = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: "en-GB" })
    await oliveContext.addCookies([{ name: "svc_session", value: oliveSession, url: node.url }])
    await miaContext.addCookies([{ name: "svc_session", value: miaSession, url: node.url }])
  })

  afterAll(async () => {
    await oliveContext?.close()
    await miaContext?.close()
    await browser?.close()
    await node?.stop()
  })

  test("two beings write to each other; the other's inbox updates without a reload; leaving after a confirmation", async () => {
    const miaPage = await openMessages(miaContext, node.url)
    const miaProblems = watchForBreakage(miaPage)
    // Her inbox holds her muse thread, marked as the Muse's.
    await expect.poll(() => inboxItem(miaPage, "Muse").textContent()).toContain("The Muse answers")
    expect(await fits(miaPage)).toBeLessThanOrEqual(390)

    const olivePage = await oliveContext.newPage()
    const oliveProblems = watchForBreakage(olivePage)
    await olivePage.goto(`${node.url}/`)
    await rail(olivePage).getByRole("link", { name: "Messages" }).click()
    await olivePage.getByRole("heading", { name: "Messages", level: 1 }).waitFor()
    await olivePage.locator('node-rail .live[data-state="live"]').waitFor()
    await olivePage.getByRole("combobox", { name: "Write to" }).selectOption({ label: "Mia Member (@mia)" })
    await olivePage.getByRole("button", { name: "Start" }).click()
    await olivePage.getByRole("heading", { name: "Mia Member", level: 2 }).waitFor()
    const oliveComposer = olivePage.getByRole("textbox", { name: "Message" })
    await oliveComposer.fill("Hello Mia, dinner at eight?")
    await oliveComposer.press("Enter")
    await expect
      .poll(() => olivePage.locator("thread-conversation li.message[data-mine=true]").last().textContent())
      .toContain("Hello Mia, dinner at eight?")

    // Mia's inbox, open all along, gains the conversation with its newest words.
    const fromOlive = inboxItem(miaPage, "Olive Owner")
    await expect.poll(() => fromOlive.textContent(), { timeout: 10_000 }).toContain("Hello Mia, dinner at eight?")
    expect(await fromOlive.textContent()).toContain("Answered in person")
    await fromOlive.click()
    await miaPage.getByRole("heading", { name: "Olive Owner", level: 2 }).waitFor()
    // On a phone the open conversation takes the screen, with a way back.
    expect(await miaPage.getByRole("list", { name: "Conversations" }).isVisible()).toBe(false)
    await miaPage.getByRole("link", { name: "← Inbox" }).waitFor()
    await expect
      .poll(() => miaPage.locator("thread-conversation li.message").first().textContent())
      .toContain("Olive Owner")
    const miaComposer = miaPage.getByRole("textbox", { name: "Message" })
    await miaComposer.fill("Yes, see you then")
    await miaComposer.press("Enter")
    expect(await fits(miaPage)).toBeLessThanOrEqual(390)

    // Olive, with the conversation open, sees the answer arrive.
    await expect
      .poll(() => olivePage.locator("thread-conversation li.message[data-mine=false]").last().textContent(), {
        timeout: 10_000
      })
      .toContain("Yes, see you then")
    await expect.poll(() => inboxItem(olivePage, "Mia Member").textContent()).toContain("Yes, see you then")

    // Mia leaves, after saying so.
    await miaPage.getByRole("button", { name: "Leave" }).click()
    const dialog = miaPage.getByRole("dialog", { name: "Leave the conversation with Olive Owner?" })
    await dialog.getByRole("button", { name: "Leave" }).click()
    await miaPage.getByRole("list", { name: "Conversations" }).waitFor()
    await expect.poll(() => inboxItem(miaPage, "Olive Owner").count()).toBe(0)
    expect(new URL(miaPage.url()).search).toBe("")
    // Olive keeps it.
    await olivePage.reload()
    await expect.poll(() => inboxItem(olivePage, "Mia Member").count()).toBe(1)
    expect([...miaProblems, ...oliveProblems]).toEqual([])
  })
})

/**
 * The market and moderation in Chromium, as two people use them: the owner at a desktop's width
 * publishes a generator of theirs, and a registered person on a phone finds it by searching, buys
 * it after the confirmation, sees the celebration and their wallet drop (the seller's open wallet
 * rises, live), reviews it, and is told in words how many credits a dearer listing lacks. The
 * owner then hides the person's square post and takes the listing down in /moderation: the
 * person's open page is told to drop the post, and the listing is gone from their search. The
 * person sees /moderation as the owner's, without a rail item. A theme chosen in Settings is worn
 * at once and after a reload. No page scrolls sideways at 390 px.
 */
import type { Browser, BrowserContext, Page, WebSocket } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}
const buyer: Person = {
  displayName: "Bram Buyer",
  handle: "bram",
  email: "bram@example.org",
  password: "bram-password-1"
}

const desktop = { width: 1280, height: 900 }
const phone = { width: 390, height: 844 }

const cookieOf = (response: globalThis.Response): string =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")[0]

describe("the market and moderation", () => {
  let node: RunningNode
  let browser: Browser
  let ownerCookie: string
  let buyerCookie: string
  const contexts: Array<BrowserContext> = []

  const api = async (cookie: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${node.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
    return response.json() as Promise<unknown>
  }

  /** A tab of a signed-in person at a width, with what would mean the app broke collected. */
  const open = async (cookie: string, viewport: { width: number; height: number }) => {
    const context = await browser.newContext({ viewport })
    contexts.push(context)
    const [name, value] = cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: node.url }])
    const page = await context.newPage()
    return { page, problems: watchForBreakage(page) }
  }

  const noSidewaysScroll = (page: Page) =>
    expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    ownerCookie = cookieOf(await registerThroughApi(node.url, owner, node.ownerCode))
    const [minted] = (await api(ownerCookie, "POST", "/api/auth/codes", { count: 1, note: "market" })) as Array<{
      code: string
    }>
    buyerCookie = cookieOf(await registerThroughApi(node.url, buyer, minted!.code))
    await api(ownerCookie, "POST", "/api/studio/generators", {
      name: "Tide tables",
      description: "Tide tables for a harbour.",
      inputsSchema: { type: "object", properties: { harbour: { type: "string" } } },
      steps: [
        {
          id: "research",
          title: "Research",
          role: "researcher",
          skills: ["web.search"],
          instruction: "Find the tides of {{inputs.harbour}}."
        },
        {
          id: "write",
          title: "Write",
          role: "writer",
          skills: ["docs.write_markdown"],
          instruction: "Tabulate {{steps.research.output}}."
        }
      ],
      outputKinds: ["markdown"],
      isPublic: false
    })
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await node?.stop()
  })

  test("publish, search, buy with a confirmation, celebrate, see both wallets move, review; then moderation takes things away", async () => {
    const seller = await open(ownerCookie, desktop)
    const person = await open(buyerCookie, phone)

    // The owner publishes their generator from My listings: the picker offers their own generator.
    await seller.page.goto(`${node.url}/market/mine`)
    await rail(seller.page).getByRole("link", { name: "Market" }).waitFor()
    const form = seller.page.getByRole("region", { name: "Publish a listing" })
    await form.getByRole("option", { name: "Tide tables" }).waitFor({ state: "attached" })
    await form.getByLabel("What you sell").selectOption({ label: "Tide tables" })
    await form.getByLabel("Title", { exact: true }).fill("Harbour tide tables")
    await form.getByLabel("Description").fill("Every tide of a harbour, tabulated.")
    await form.getByLabel("Price in credits").fill("30")
    await form.getByLabel("Tags, with commas").fill("ocean, sailing")
    await form.getByRole("button", { name: "Publish" }).click()
    await seller.page.getByText("Harbour tide tables is published.").waitFor()
    // The form is ready for the next listing, with its defaults back.
    expect([
      await form.getByLabel("Title", { exact: true }).inputValue(),
      await form.getByLabel("Price in credits").inputValue()
    ]).toEqual(["", "0"])
    await seller.page
      .getByRole("list", { name: "My listings" })
      .getByRole("link", { name: "Harbour tide tables" })
      .waitFor()
    const dear = (await api(ownerCookie, "POST", "/api/market/listings", {
      kind: "service",
      title: "Harbour survey",
      brief: "Survey the harbour.",
      priceCredits: 500
    })) as { id: string }

    // The seller keeps their wallet open: the sale shows there by itself.
    await seller.page.getByRole("navigation", { name: "Market sections" }).getByRole("link", { name: "Wallet" }).click()
    await seller.page.getByRole("region", { name: "Wallet" }).getByText("100 credits").waitFor()

    // The person posts in the square, and their tab listens to the live channel.
    const post = (await api(buyerCookie, "POST", "/api/beings/square", {
      content: "Cheap tide tables, buy mine instead!"
    })) as { id: string }
    const retracted = new Promise<void>((resolve) => {
      person.page.on("websocket", (socket: WebSocket) =>
        socket.on("framereceived", ({ payload }) => {
          if (typeof payload === "string" && payload.includes('"square.retracted"') && payload.includes(post.id))
            resolve()
        })
      )
    })

    // The person finds it by searching, on a phone.
    await person.page.goto(`${node.url}/market`)
    const search = person.page.getByRole("search")
    await search.getByLabel("Search").fill("tide sailing")
    await search.getByRole("button", { name: "Search" }).click()
    await person.page.getByRole("list", { name: "Listings" }).getByRole("link", { name: "Harbour tide tables" }).click()
    await person.page.getByRole("heading", { name: "Harbour tide tables", level: 1 }).waitFor()
    await person.page.getByRole("link", { name: "Your wallet" }).getByText("100 credits").waitFor()
    await noSidewaysScroll(person.page)

    // Buying asks first; cancelling changes nothing.
    await person.page.getByRole("button", { name: "Buy for 30 credits" }).click()
    const dialog = person.page.getByRole("dialog", { name: "Buy Harbour tide tables?" })
    await dialog.getByText("30 credits move from your wallet to the seller.").waitFor()
    await dialog.getByRole("button", { name: "Cancel" }).click()
    await dialog.waitFor({ state: "hidden" })
    await person.page.getByRole("button", { name: "Buy for 30 credits" }).click()
    await dialog.getByRole("button", { name: "Buy for 30 credits" }).click()
    await person.page.getByText("You bought Harbour tide tables!").waitFor()
    await person.page.getByRole("link", { name: "Your wallet" }).getByText("70 credits").waitFor()
    await person.page.getByText("You own this already.").waitFor()
    await seller.page.getByRole("region", { name: "Wallet" }).getByText("130 credits").waitFor()
    await seller.page.getByRole("list", { name: "Ledger entries" }).getByText("+30 credits").waitFor()
    await noSidewaysScroll(person.page)

    // A buyer reviews it.
    const reviews = person.page.getByRole("region", { name: "Reviews" })
    await reviews.getByLabel("Rating").selectOption("4")
    await reviews.getByLabel("What you think").fill("Accurate to the minute.")
    await reviews.getByRole("button", { name: "Save the review" }).click()
    await reviews.getByText("Your review is saved.").waitFor()
    await reviews.getByRole("list", { name: "Reviews" }).getByText("Accurate to the minute.").waitFor()
    await person.page.getByText("4.0 out of 5 from 1 review").waitFor()

    // A listing beyond the wallet is refused in words: how many credits are missing.
    await person.page.goto(`${node.url}/market/${dear.id}`)
    await person.page.getByRole("button", { name: "Buy for 500 credits" }).click()
    await person.page.getByRole("dialog").getByRole("button", { name: "Buy for 500 credits" }).click()
    await person.page.getByText("This costs 500 credits and your wallet holds 70: 430 more needed.").waitFor()

    // Their orders and wallet say what happened.
    await person.page.goto(`${node.url}/market/orders`)
    await person.page.getByRole("list", { name: "Bought" }).getByRole("link", { name: "Harbour tide tables" }).waitFor()
    await noSidewaysScroll(person.page)
    await person.page.goto(`${node.url}/market/wallet`)
    await person.page.getByRole("list", { name: "Ledger entries" }).getByText("−30 credits").waitFor()
    await noSidewaysScroll(person.page)

    // The owner moderates: the post is hidden, the listing taken down.
    await seller.page.goto(`${node.url}/moderation`)
    await seller.page.getByRole("heading", { name: "Moderation", level: 1 }).waitFor()
    await seller.page.getByRole("button", { name: "Hide the post by Bram Buyer" }).click()
    await seller.page.getByText("The post by Bram Buyer is hidden.").waitFor()
    await retracted
    await seller.page.getByRole("button", { name: "Pause Harbour tide tables" }).click()
    await seller.page.getByText("Harbour tide tables is off the market.").waitFor()
    await seller.page.getByRole("button", { name: "Restore Harbour tide tables" }).waitFor()

    // The person's search no longer has it, and the square no longer has the post.
    await person.page.goto(`${node.url}/market`)
    await person.page.getByRole("search").getByLabel("Search").fill("tide")
    await person.page.getByRole("search").getByRole("button", { name: "Search" }).click()
    await person.page.getByText("No listing matches that search.").waitFor()
    const square = (await (await person.page.request.get(`${node.url}/api/beings/square`)).json()) as Array<{
      id: string
    }>
    expect(square.map((one) => one.id)).not.toContain(post.id)

    // Moderation is the owner's: no rail item for the person (on a phone, none under More), and the place says so.
    await rail(person.page).getByRole("button", { name: "More" }).click()
    await rail(person.page).getByRole("link", { name: "Settings" }).waitFor()
    expect(await rail(person.page).getByRole("link", { name: "Moderation" }).count()).toBe(0)
    expect(await rail(seller.page).getByRole("link", { name: "Moderation" }).count()).toBe(1)
    await person.page.goto(`${node.url}/moderation`)
    await person.page.getByText("Owner only: moderation is for the owner of this node.").waitFor()
    await noSidewaysScroll(person.page)

    expect([...seller.problems, ...person.problems]).toEqual([])
  })

  test("a seller edits and pauses a listing from My listings, on a phone", async () => {
    const { page, problems } = await open(ownerCookie, phone)
    await page.goto(`${node.url}/market/mine`)
    const mine = page.getByRole("list", { name: "My listings" })
    const survey = mine.getByRole("listitem").filter({ hasText: "Harbour survey" })
    await survey.getByRole("button", { name: "Edit" }).click()
    await survey.getByLabel("Price in credits").fill("450")
    await survey.getByRole("button", { name: "Save changes" }).click()
    await survey.getByText("450 credits").waitFor()
    await survey.getByRole("button", { name: "Pause" }).click()
    await page.getByText("Harbour survey is paused.").waitFor()
    await survey.getByText("Paused", { exact: true }).waitFor()
    await survey.getByRole("button", { name: "Resume" }).waitFor()
    // The listing taken down in moderation says so to its seller.
    await mine
      .getByRole("listitem")
      .filter({ hasText: "Harbour tide tables" })
      .getByText("Taken down by the node's owner")
      .waitFor()
    await noSidewaysScroll(page)
    expect(problems).toEqual([])
  })

  test("a theme chosen in Settings is worn at once and after a reload", async () => {
    const { page, problems } = await open(buyerCookie, phone)
    await page.goto(`${node.url}/settings`)
    const themes = page.getByRole("region", { name: "Theme" })
    await themes.getByRole("radio", { name: /^Dark/ }).check()
    await themes.getByText("Dark is on.").waitFor()
    const background = () =>
      page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--node-bg").trim())
    await expect.poll(background).toBe("#121215")
    await page.reload()
    await expect.poll(background).toBe("#121215")
    await page
      .getByRole("region", { name: "Theme" })
      .getByRole("radio", { name: "Follow this device (light or dark)" })
      .check()
    await expect.poll(background).not.toBe("#121215")
    await noSidewaysScroll(page)
    expect(problems).toEqual([])
  })
})

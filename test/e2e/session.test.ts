/**
 * Sessions through the browser: log in and sign out (and back, to the place asked for), the
 * rail at phone width, and ending other sessions or every session from Settings.
 */
import type { Browser, BrowserContext, Page, Response } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { launchBrowser } from "./browser.ts"
import {
  focused,
  logIn as logInAs,
  type Person,
  rail,
  registerThroughApi,
  submitLogin,
  waitForDesktop,
  watchForBreakage
} from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

const isCall = (method: string, path: string) => (response: Response) =>
  response.request().method() === method && new URL(response.url()).pathname === path

const pathOf = (page: Page) => new URL(page.url()).pathname

describe("sessions in the browser", () => {
  let node: RunningNode
  let browser: Browser
  const contexts: Array<BrowserContext> = []

  const freshPage = async (options: { viewport?: { width: number; height: number } } = {}): Promise<Page> => {
    const context = await browser.newContext(options)
    contexts.push(context)
    return context.newPage()
  }

  const logIn = (page: Page): Promise<void> => logInAs(page, node.url, owner)

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    await registerThroughApi(node.url, owner, node.ownerCode)
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await node?.stop()
  })

  test("log in, sign out, and log in again back to the place asked for", async () => {
    const page = await freshPage()
    const breakage = watchForBreakage(page)
    await page.goto(`${node.url}/`)
    await page.getByRole("heading", { name: "Log in" }).waitFor()
    expect(pathOf(page)).toBe("/login")
    expect(await rail(page).getByRole("link", { name: "Register" }).count()).toBe(1)

    const refused = page.waitForResponse(isCall("POST", "/api/auth/login"))
    await submitLogin(page, owner.email, "not-the-password")
    const refusal = await refused
    expect(refusal.status()).toBe(401)
    const body = (await refusal.json()) as { message: string }
    await page.getByRole("alert").filter({ hasText: body.message }).waitFor()

    await submitLogin(page, owner.email, owner.password)
    await waitForDesktop(page, owner)
    await page.reload()
    await waitForDesktop(page, owner)

    await rail(page).getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { name: "Log in" }).waitFor()
    expect(pathOf(page)).toBe("/login")
    const cookies = await page.context().cookies()
    expect(cookies.filter((cookie) => cookie.name === "svc_session" && cookie.value !== "")).toEqual([])

    await page.goto(`${node.url}/settings`)
    await page.getByRole("heading", { name: "Log in" }).waitFor()
    expect(new URL(page.url()).searchParams.get("next")).toBe("/settings")
    await submitLogin(page, owner.email, owner.password)
    await page.getByRole("heading", { name: "Sessions" }).waitFor()
    expect(pathOf(page)).toBe("/settings")
    expect(breakage).toEqual([])
  })

  test("signed out, the app asks the node once who is signed in and calls nothing else; signed in, it fetches each thing once", async () => {
    const page = await freshPage()
    const breakage = watchForBreakage(page)
    const calls: Array<string> = []
    const refusals: Array<string> = []
    page.on("request", (request) => {
      const url = new URL(request.url())
      if (url.pathname.startsWith("/api/")) calls.push(`${request.method()} ${url.pathname}${url.search}`)
    })
    page.on("response", (response) => {
      if (response.status() === 401) refusals.push(new URL(response.url()).pathname)
    })
    const heading = (name: string) => page.getByRole("heading", { name, level: 1 }).waitFor()

    await page.goto(`${node.url}/studio`)
    await heading("Log in")
    for (const [link, title] of [
      ["Register", "Register"],
      ["Waitlist", "Join the waitlist"],
      ["Log in", "Log in"]
    ] as const) {
      await rail(page).getByRole("link", { name: link }).click()
      await heading(title)
    }
    // One question, answered 200 with no one: a signed-out browser's console shows no 401. The register page also asks
    // whether it may offer a restore from a backup (public, 200: this node has an owner, so it offers none).
    expect(calls).toEqual(["GET /api/auth/session", "GET /api/setup/restore"])
    expect(refusals).toEqual([])

    // Signed in: the desktop and then the studio load each of their things once, though the
    // live channel says hello in between.
    calls.length = 0
    await submitLogin(page, owner.email, owner.password)
    await page.locator('node-rail .live[data-state="live"]').waitFor()
    await page.locator("desktop-signals .empty").waitFor()
    await page.locator("desktop-now .greeting").waitFor()
    await rail(page).getByRole("link", { name: "Studio" }).click()
    await page.locator("studio-gallery li.generator").first().waitFor()
    await page.locator("studio-portfolio").getByText("No projects yet.").waitFor()
    expect(calls.filter((call, index) => calls.indexOf(call) !== index)).toEqual([])
    expect(calls).toEqual(
      expect.arrayContaining([
        "POST /api/auth/login",
        "GET /api/desktop/widgets",
        "GET /api/desktop/signals?status=open&limit=200&offset=0",
        "GET /api/studio/generators",
        "GET /api/studio/portfolio?limit=50&offset=0"
      ])
    )

    // Signed out again: nothing but the sign-out itself, and the register page's question about a restore.
    calls.length = 0
    await rail(page).getByRole("button", { name: "Sign out" }).click()
    await heading("Log in")
    await rail(page).getByRole("link", { name: "Register" }).click()
    await heading("Register")
    expect(calls).toEqual(["POST /api/auth/logout", "GET /api/setup/restore"])
    expect(refusals).toEqual([])
    expect(breakage).toEqual([])
  })

  test("after a navigation the keyboard is on the new place's heading; on the first load it stays where the browser put it", async () => {
    const page = await freshPage()
    const breakage = watchForBreakage(page)
    await logIn(page)
    await page.goto(`${node.url}/settings`)
    await page.getByRole("heading", { name: "Sessions" }).waitFor()
    expect(await focused(page)).toEqual({ tag: "body", text: expect.any(String) })

    await rail(page).getByRole("link", { name: "Studio" }).focus()
    await page.keyboard.press("Enter")
    await expect.poll(() => focused(page)).toEqual({ tag: "h1", text: "Studio" })
    // Focused, not put in the tab order.
    expect(await page.locator("studio-place h1").getAttribute("tabindex")).toBe("-1")

    await page.goBack()
    await expect.poll(() => focused(page)).toEqual({ tag: "h1", text: "Settings" })
    await rail(page).getByRole("link", { name: "Desktop" }).click()
    await expect.poll(() => focused(page)).toEqual({ tag: "h1", text: "Desktop" })
    // Every place, those whose code loads on the first visit too (Admin) and those of sections (Settings).
    for (const [link, heading] of [
      ["Admin", "Admin"],
      ["Settings", "Settings"],
      ["Twin", "Twin"],
      ["Desktop", "Desktop"]
    ] as const) {
      await rail(page).getByRole("link", { name: link, exact: true }).click()
      await expect.poll(() => focused(page)).toEqual({ tag: "h1", text: heading })
    }
    expect(breakage).toEqual([])
  })

  test("at 390 px the rail is a bar across the top that fits and works by keyboard", async () => {
    const page = await freshPage({ viewport: { width: 390, height: 844 } })
    const breakage = watchForBreakage(page)
    await logIn(page)

    // A bar across the top (not a column beside the content): as wide as the screen, above the page.
    const bar = await rail(page).boundingBox()
    expect(bar).not.toBeNull()
    expect(bar!.y).toBeLessThan(100)
    expect(bar!.width).toBeGreaterThan(300)
    expect(bar!.width).toBeLessThanOrEqual(390)
    const heading = await page.getByRole("heading", { level: 1 }).boundingBox()
    expect(heading!.y).toBeGreaterThanOrEqual(bar!.y + bar!.height)
    const fits = async (name: string, role: "link" | "button" = "link") => {
      const box = await rail(page)
        .getByRole(role, { name, exact: role === "link" })
        .boundingBox()
      expect(box, name).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(390)
      expect(box!.height).toBeGreaterThanOrEqual(40)
    }
    for (const name of ["Desktop", "Muse", "Studio", "Work"]) await fits(name)
    await fits("More", "button")
    const signOut = await rail(page).getByRole("button", { name: "Sign out" }).boundingBox()
    expect(signOut!.x + signOut!.width).toBeLessThanOrEqual(390)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)

    // The other places are under More, reached by keyboard too.
    await rail(page).getByRole("button", { name: "More" }).focus()
    await page.keyboard.press("Enter")
    for (const name of ["Settings", "Admin"]) await fits(name)
    await rail(page).getByRole("link", { name: "Settings" }).focus()
    await page.keyboard.press("Enter")
    await page.getByRole("heading", { name: "Sessions" }).waitFor()
    expect(pathOf(page)).toBe("/settings")
    // The sheet closed on the choice; its link (hidden now) is marked as the current place.
    await expect.poll(() => rail(page).locator('a[href="/settings"]').first().getAttribute("aria-current")).toBe("page")
    expect(breakage).toEqual([])
  })

  test("Settings lists the sessions, signs out the others, then signs out everywhere", async () => {
    const here = await freshPage()
    const elsewhere = await freshPage()
    await logIn(here)
    await logIn(elsewhere)

    await here.goto(`${node.url}/settings`)
    const rows = here.locator("tr.session")
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(2)
    expect(await here.locator("tr.session.current").count()).toBe(1)

    // Each asks first; Escape or Cancel changes nothing.
    const revoking: Array<string> = []
    here.on("request", (request) => {
      if (request.method() !== "GET") revoking.push(`${request.method()} ${new URL(request.url()).pathname}`)
    })
    await here.getByRole("button", { name: "Sign out other sessions" }).click()
    const others = here.getByRole("dialog", { name: "Sign out every other session?" })
    await others.waitFor()
    await here.keyboard.press("Escape")
    await others.waitFor({ state: "hidden" })
    await here.getByRole("button", { name: "Sign out everywhere" }).click()
    const everywhere = here.getByRole("dialog", { name: "Sign out everywhere?" })
    await everywhere.getByRole("button", { name: "Cancel" }).click()
    await everywhere.waitFor({ state: "hidden" })
    expect(revoking).toEqual([])
    expect(await rows.count()).toBeGreaterThanOrEqual(2)

    await here.getByRole("button", { name: "Sign out other sessions" }).click()
    await others.getByRole("button", { name: "Sign out the others" }).click()
    await here
      .getByRole("status")
      .filter({ hasText: /Signed out \d+ other session/ })
      .waitFor()
    await expect.poll(() => rows.count()).toBe(1)
    expect(await here.locator("tr.session.current").count()).toBe(1)

    await elsewhere.reload()
    await elsewhere.getByRole("heading", { name: "Log in" }).waitFor()

    await here.getByRole("button", { name: "Sign out everywhere" }).click()
    await everywhere.getByRole("button", { name: "Sign out everywhere" }).click()
    await here.getByRole("heading", { name: "Log in" }).waitFor()
    const me = await here.request.get(`${node.url}/api/auth/me`)
    expect(me.status()).toBe(401)
  })
})

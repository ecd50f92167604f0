/**
 * The desktop in the browser, live: a signal raised for the owner appears on the open desktop
 * within a second; answering a decision in one tab removes it in every tab, and a tab that
 * missed that learns it from the node's 409, in words; dismissing works; the widget layout
 * is rearranged by keyboard and stays after a reload (and stacks at phone width); after the
 * connection drops (offline, or the socket closed under the page) the app reconnects by itself
 * and shows what it missed; and signing out everywhere elsewhere sends the page to log in.
 */
import type {
  APIRequestContext,
  Browser,
  BrowserContext,
  BrowserContextOptions,
  Page,
  Response,
  WebSocketRoute
} from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import type { Signal } from "../../actors/being/contract/signal.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, rail, waitForDesktop, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const owner: Person = {
  displayName: "Olive Owner",
  handle: "olive",
  email: "olive@example.org",
  password: "olive-password-1"
}

const isCall = (method: string, path: string) => (response: Response) =>
  response.request().method() === method && new URL(response.url()).pathname === path

const isLive = (url: URL) => url.pathname === "/api/ws"

/** The aria-label of the element that has the keyboard, through the shadow roots it sits in. */
const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    return active?.getAttribute("aria-label") ?? null
  })

describe("the desktop, live", () => {
  let node: RunningNode
  let browser: Browser
  const contexts: Array<BrowserContext> = []
  let raised = 0
  /** The owner's session cookie: every browser here shares one session (logins are rate limited). */
  let session: { readonly name: string; readonly value: string }

  const sessionCookie = (response: globalThis.Response) => {
    const [pair] = response.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith("svc_session="))!
      .split(";")
    const split = pair.indexOf("=")
    return { name: pair.slice(0, split), value: pair.slice(split + 1) }
  }

  beforeAll(async () => {
    ;[node, browser] = await Promise.all([startNode(), launchBrowser()])
    const response = await fetch(`${node.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...owner, accessCode: node.ownerCode })
    })
    expect(response.status).toBe(200)
    session = sessionCookie(response)
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await browser?.close()
    await node?.stop()
  })

  /** A browser (its own cookie jar) where the owner is signed in. */
  const signedIn = async (options: BrowserContextOptions = {}): Promise<BrowserContext> => {
    const context = await browser.newContext(options)
    contexts.push(context)
    await context.addCookies([{ ...session, url: node.url }])
    return context
  }

  /** A tab on the desktop, once its live channel has said hello. */
  const openDesktop = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage()
    await page.goto(`${node.url}/`)
    await waitForDesktop(page, owner)
    await liveState(page, "live").waitFor()
    return page
  }

  const liveState = (page: Page, state: string) => page.locator(`node-rail .live[data-state="${state}"]`)

  /** Raises a signal on the owner's desktop with the owner's cookies; a distinct title each time. */
  const raise = async (request: APIRequestContext, input: Record<string, unknown> = {}): Promise<Signal> => {
    const response = await request.post(`${node.url}/api/desktop/signals`, {
      data: { title: `Signal ${++raised}`, ...input }
    })
    expect(response.status()).toBe(200)
    const body = (await response.json()) as { signal: Signal; delivered: boolean }
    expect(body.delivered).toBe(true)
    return body.signal
  }

  const card = (page: Page, signal: Signal) => page.locator(`desktop-signals li.signal[data-signal-id="${signal.id}"]`)

  const listed = async (request: APIRequestContext, status: string): Promise<ReadonlyArray<Signal>> => {
    const response = await request.get(`${node.url}/api/desktop/signals?status=${status}`)
    expect(response.status()).toBe(200)
    return (await response.json()) as ReadonlyArray<Signal>
  }

  const decision = (title: string) => ({
    kind: "decision",
    title,
    body: "Pick one.",
    options: [
      { id: "yes", label: "Approve", hint: "Go ahead" },
      { id: "no", label: "Decline" }
    ]
  })

  test("a signal raised for the owner appears on the open desktop within a second, with everything it says", async () => {
    const context = await signedIn({ timezoneId: "Pacific/Auckland" })
    const page = await openDesktop(context)
    const breakage = watchForBreakage(page)
    // The greeting and the time follow the browser's zone, not the node's.
    await page.locator("desktop-now .zone").filter({ hasText: "Time zone: Pacific/Auckland" }).waitFor()
    await page.locator("desktop-signals .empty").filter({ hasText: "Nothing needs you right now." }).waitFor()

    const signal = await raise(context.request, {
      kind: "reminder",
      title: "Water the plants",
      body: "The fern first.\nThen the rest.",
      priority: "high",
      dueAt: "2030-01-31T09:00:00Z"
    })
    await card(page, signal).waitFor({ timeout: 1000 })

    const shown = card(page, signal)
    expect(await shown.locator("h3").textContent()).toBe("Water the plants")
    expect(await shown.locator(".kind").textContent()).toBe("Reminder")
    expect(await shown.locator(".priority").textContent()).toBe("High priority")
    expect(await shown.locator(".body").innerText()).toBe("The fern first.\nThen the rest.")
    expect(await shown.locator(".source").textContent()).toBe("You")
    expect(await shown.locator(".due time").getAttribute("datetime")).toBe(signal.dueAt)
    expect(await shown.locator(".due").textContent()).toMatch(/2030/)
    await page
      .locator('desktop-place [aria-live="polite"]')
      .filter({ hasText: "New signal: Water the plants" })
      .waitFor()

    // Urgent first, and an urgent one is announced assertively.
    const urgent = await raise(context.request, { kind: "alert", title: "The disk is almost full", priority: "urgent" })
    await card(page, urgent).waitFor({ timeout: 1000 })
    expect(await page.locator("desktop-signals li.signal").first().getAttribute("data-signal-id")).toBe(urgent.id)
    await page
      .locator('desktop-place [aria-live="assertive"]')
      .filter({ hasText: "Urgent signal: The disk is almost full" })
      .waitFor()
    expect(breakage).toEqual([])
  })

  test("the most pressing signal comes first: by priority, then the soonest due, then the newest, and live ones take their place", async () => {
    const context = await signedIn()
    const page = await openDesktop(context)
    const breakage = watchForBreakage(page)
    const raiseAll = async (inputs: ReadonlyArray<Record<string, unknown>>) => {
      const raisedNow: Array<Signal> = []
      for (const input of inputs) raisedNow.push(await raise(context.request, input))
      return raisedNow
    }
    const [low, dueLater, dueSooner, noDue, high] = await raiseAll([
      { title: "Tidy the shelf", priority: "low" },
      { title: "Renew the passport", dueAt: "2030-03-01T09:00:00Z" },
      { title: "Pay the rent", dueAt: "2030-02-01T09:00:00Z" },
      { title: "Call the plumber" },
      { title: "Answer the bank", priority: "high" }
    ])
    const mine = new Set([low, dueLater, dueSooner, noDue, high].map((signal) => signal.id))
    const order = async (): Promise<Array<string>> =>
      (
        await page
          .locator("desktop-signals li.signal")
          .evaluateAll((items) => items.map((item) => item.getAttribute("data-signal-id") ?? ""))
      ).filter((id) => mine.has(id))
    await card(page, high).waitFor()
    await expect.poll(order).toEqual([high.id, dueSooner.id, dueLater.id, noDue.id, low.id])

    // A signal raised now takes its place, not the top.
    const dueSoonest = await raise(context.request, { title: "Water the garden", dueAt: "2030-01-15T09:00:00Z" })
    mine.add(dueSoonest.id)
    await card(page, dueSoonest).waitFor()
    expect(await order()).toEqual([high.id, dueSoonest.id, dueSooner.id, dueLater.id, noDue.id, low.id])
    // The same order after a load.
    await page.reload()
    await card(page, low).waitFor()
    expect(await order()).toEqual([high.id, dueSoonest.id, dueSooner.id, dueLater.id, noDue.id, low.id])
    expect(breakage).toEqual([])
  })

  test("a failed project's alert names the project by its title, linked to its page", async () => {
    const context = await signedIn()
    const page = await openDesktop(context)
    const breakage = watchForBreakage(page)
    // No model is configured here: the run fails at once and raises an alert from studio:<id>.
    const started = await context.request.post(`${node.url}/api/studio/projects`, {
      data: { brief: "A note on lighthouses" }
    })
    expect(started.status()).toBe(200)
    const project = (await started.json()) as { id: string; title: string }
    const alert = page.locator("desktop-signals li.signal").filter({ hasText: `Project failed: ${project.title}` })
    await alert.waitFor({ timeout: 15_000 })
    const from = alert.locator(".source").getByRole("link", { name: project.title })
    await from.waitFor()
    expect(await from.getAttribute("href")).toBe(`/studio/${project.id}`)
    expect(await alert.locator(".source").textContent()).not.toContain(project.id)
    await from.click()
    await page.locator(`project-place .status[data-status="failed"]`).waitFor()
    expect(new URL(page.url()).pathname).toBe(`/studio/${project.id}`)
    expect(breakage).toEqual([])
  })

  test("answering a decision with one tap removes it from the open list in both tabs of the owner", async () => {
    const context = await signedIn()
    const [first, second] = [await openDesktop(context), await openDesktop(context)]
    const signal = await raise(context.request, decision("Ship the release?"))
    await Promise.all([card(first, signal).waitFor(), card(second, signal).waitFor()])

    const answering = first.waitForResponse(isCall("POST", `/api/desktop/signals/${signal.id}/answer`))
    await card(first, signal).getByRole("button", { name: "Approve" }).click()
    expect((await answering).status()).toBe(200)
    await Promise.all([
      card(first, signal).waitFor({ state: "detached" }),
      card(second, signal).waitFor({ state: "detached" })
    ])
    await first
      .locator("desktop-signals")
      .getByRole("status")
      .filter({ hasText: "You answered “Approve” to “Ship the release?”." })
      .waitFor()

    const answered = (await listed(context.request, "answered")).find((candidate) => candidate.id === signal.id)
    expect(answered?.answer).toBe("yes")
    // Still gone after a reload: the node, not just the page, has it answered.
    await second.reload()
    await waitForDesktop(second, owner)
    await second.locator("desktop-signals").waitFor()
    await expect.poll(() => card(second, signal).count()).toBe(0)
  })

  test("a tab that missed the answer is told the node's 409 in words, and its list refreshes", async () => {
    const context = await signedIn()
    const stale = await context.newPage()
    // This tab's socket loses every signal.updated on the way, as if it had missed them.
    await stale.routeWebSocket(isLive, (page) => {
      const server = page.connectToServer()
      server.onMessage((message) => {
        if (typeof message === "string" && (JSON.parse(message) as { type: string }).type === "signal.updated") return
        page.send(message)
      })
    })
    await stale.goto(`${node.url}/`)
    await liveState(stale, "live").waitFor()

    const signal = await raise(context.request, decision("Renew the domain?"))
    await card(stale, signal).waitFor()
    const elsewhere = await context.request.post(`${node.url}/api/desktop/signals/${signal.id}/answer`, {
      data: { optionId: "no" }
    })
    expect(elsewhere.status()).toBe(200)

    const refused = stale.waitForResponse(isCall("POST", `/api/desktop/signals/${signal.id}/answer`))
    await card(stale, signal).getByRole("button", { name: "Approve" }).click()
    const refusal = await refused
    expect(refusal.status()).toBe(409)
    const body = (await refusal.json()) as { error: string; message: string }
    expect(body.error).toBe("signal_closed")
    await stale.locator("desktop-signals").getByRole("alert").filter({ hasText: body.message }).waitFor()
    await card(stale, signal).waitFor({ state: "detached" })
  })

  test("any open signal can be dismissed", async () => {
    const context = await signedIn()
    const page = await openDesktop(context)
    const signal = await raise(context.request, { kind: "insight", title: "You read a lot on Sundays" })
    await card(page, signal).waitFor()
    const dismissing = page.waitForResponse(isCall("POST", `/api/desktop/signals/${signal.id}/dismiss`))
    await page.getByRole("button", { name: "Dismiss: You read a lot on Sundays" }).click()
    expect((await dismissing).status()).toBe(200)
    await card(page, signal).waitFor({ state: "detached" })
    expect((await listed(context.request, "dismissed")).map((candidate) => candidate.id)).toContain(signal.id)
    expect((await listed(context.request, "open")).map((candidate) => candidate.id)).not.toContain(signal.id)
  })

  test("the widget layout is rearranged by keyboard, stays after a reload, and stacks at phone width", async () => {
    const context = await signedIn()
    const page = await openDesktop(context)
    const breakage = watchForBreakage(page)
    const widget = (type: string) => page.locator(`desktop-place section.widget[data-widget-type="${type}"]`)
    const columnOf = (type: string) =>
      widget(type).evaluate((section) => section.closest(".column")?.getAttribute("data-column"))
    await widget("core.now")
      .locator("desktop-now .greeting")
      .filter({ hasText: /^Good (morning|afternoon|evening), Olive Owner$/ })
      .waitFor()
    expect(await columnOf("core.signals")).toBe("0")

    await page.getByRole("button", { name: "Arrange widgets" }).click()
    await page.getByRole("button", { name: "Move Signals right" }).focus()
    const saving = page.waitForResponse(isCall("PUT", "/api/desktop/widgets"))
    await page.keyboard.press("Enter")
    expect((await saving).status()).toBe(200)
    await page.getByRole("status").filter({ hasText: "Signals is now in column 2, place 1." }).waitFor()
    expect(await columnOf("core.signals")).toBe("1")
    // The keyboard stays on the moved widget's buttons.
    expect(await focusedLabel(page)).toBe("Move Signals right")

    // Now under Signals: right, then down (a second move while the first may still be saving).
    await page.getByRole("button", { name: "Move Now right" }).click()
    await page.getByRole("button", { name: "Move Now down" }).click()
    await page.getByRole("status").filter({ hasText: "Now is now in column 2, place 2." }).waitFor()
    await expect
      .poll(
        async () =>
          ((await (await context.request.get(`${node.url}/api/desktop/widgets`)).json()) as { widgets: unknown })
            .widgets
      )
      .toEqual([
        { id: "signals", type: "core.signals", column: 1, order: 0 },
        { id: "now", type: "core.now", column: 1, order: 1 }
      ])

    await page.getByRole("button", { name: "Done arranging" }).click()
    await page.getByRole("button", { name: "Arrange widgets" }).waitFor()
    expect(await page.getByRole("button", { name: /^Move / }).count()).toBe(0)

    await page.reload()
    await waitForDesktop(page, owner)
    await widget("core.now").waitFor()
    expect(await columnOf("core.signals")).toBe("1")
    expect(await columnOf("core.now")).toBe("1")
    const signalsBox = (await widget("core.signals").boundingBox())!
    const nowBox = (await widget("core.now").boundingBox())!
    expect(nowBox.y).toBeGreaterThan(signalsBox.y)
    expect(breakage).toEqual([])

    // A layout with a widget the node does not offer (a removed plugin's) still loads, side by side at full width.
    const stored = await context.request.put(`${node.url}/api/desktop/widgets`, {
      data: {
        widgets: [
          { id: "now", type: "core.now", column: 0, order: 0 },
          { id: "signals", type: "core.signals", column: 1, order: 0 },
          { id: "weather", type: "acme.weather", column: 2, order: 0 }
        ]
      }
    })
    expect(stored.status()).toBe(200)
    await page.reload()
    await widget("acme.weather").filter({ hasText: "This widget is not available." }).waitFor()
    const wide = await Promise.all(
      ["core.now", "core.signals", "acme.weather"].map(async (type) => (await widget(type).boundingBox())!)
    )
    expect(wide[1].x).toBeGreaterThan(wide[0].x)
    expect(wide[2].x).toBeGreaterThan(wide[1].x)

    // At phone width the same columns stack, in column order, inside the screen.
    const phone = await (await signedIn({ viewport: { width: 390, height: 844 } })).newPage()
    await phone.goto(`${node.url}/`)
    await phone.locator('desktop-place section.widget[data-widget-type="acme.weather"]').waitFor()
    const stacked = await Promise.all(
      ["core.now", "core.signals", "acme.weather"].map(
        async (type) => (await phone.locator(`desktop-place section.widget[data-widget-type="${type}"]`).boundingBox())!
      )
    )
    expect(stacked[1].y).toBeGreaterThanOrEqual(stacked[0].y + stacked[0].height)
    expect(stacked[2].y).toBeGreaterThanOrEqual(stacked[1].y + stacked[1].height)
    for (const box of stacked) expect(box.x + box.width).toBeLessThanOrEqual(390)
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  })

  test("offline and back: the app reconnects by itself and shows the signal it missed", async () => {
    const context = await signedIn()
    const page = await openDesktop(context)
    await context.setOffline(true)
    await liveState(page, "reconnecting").waitFor()
    // Raised from outside the browser, which is offline.
    const response = await fetch(`${node.url}/api/desktop/signals`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `${session.name}=${session.value}` },
      body: JSON.stringify({ title: "Raised while you were offline" })
    })
    expect(response.status).toBe(200)
    const { signal } = (await response.json()) as { signal: Signal }
    expect(await card(page, signal).count()).toBe(0)

    await context.setOffline(false)
    await liveState(page, "live").waitFor()
    await card(page, signal).waitFor()
  })

  test("a socket closed under the page is reopened with backoff, and what came meanwhile appears", async () => {
    const context = await signedIn()
    const page = await context.newPage()
    const sockets: Array<WebSocketRoute> = []
    let refuse = false
    let refused = 0
    await page.routeWebSocket(isLive, async (socket) => {
      if (refuse) {
        refused++
        await socket.close({ code: 1011, reason: "the test refuses" })
        return
      }
      sockets.push(socket)
      socket.connectToServer()
    })
    await page.goto(`${node.url}/`)
    await liveState(page, "live").waitFor()
    expect(sockets).toHaveLength(1)

    refuse = true
    await sockets[0].close({ code: 1011, reason: "the test drops it" })
    await liveState(page, "reconnecting").waitFor()
    const signal = await raise(context.request, { title: "Raised while the socket was down" })
    // The app keeps trying by itself; let one more attempt be refused before the node answers again.
    await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
    expect(await card(page, signal).count()).toBe(0)
    refuse = false
    await liveState(page, "live").waitFor({ timeout: 15_000 })
    expect(sockets).toHaveLength(2)
    await card(page, signal).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
  })

  test("signing out everywhere from another device closes the socket and the page goes to log in", async () => {
    const context = await signedIn()
    const page = await openDesktop(context)
    const breakage = watchForBreakage(page)
    const login = await fetch(`${node.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: owner.email, password: owner.password })
    })
    expect(login.status).toBe(200)
    const elsewhere = sessionCookie(login)
    const everywhere = await fetch(`${node.url}/api/auth/logout/all`, {
      method: "POST",
      headers: { cookie: `${elsewhere.name}=${elsewhere.value}` }
    })
    expect(everywhere.status).toBe(200)

    await page.getByRole("heading", { name: "Log in" }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/login")
    await page.getByRole("status").filter({ hasText: "Your session has ended. Log in again." }).waitFor()
    expect(await page.locator("node-rail .live").count()).toBe(0)
    expect(await rail(page).getByRole("link", { name: "Log in" }).count()).toBe(1)
    expect(breakage).toEqual([])
  })
})

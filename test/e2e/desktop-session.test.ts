/**
 * The desktop in the browser, beyond its signals: the widget layout is rearranged by keyboard and
 * stays after a reload (and stacks at phone width); after the connection drops (offline, or the
 * socket closed under the page) the app reconnects by itself and shows what it missed; and
 * signing out everywhere elsewhere sends the page to log in.
 */
import type { WebSocketRoute } from "playwright-core"
import { describe, expect, test } from "vitest"
import type { Signal } from "../../actors/being/contract/signal.ts"
import { rail, waitForDesktop, watchForBreakage } from "./flows.ts"
import { desktopSession, focusedLabel, isLive, sessionCookie } from "./desktop-support.ts"
import { isCall, owner } from "./flows.ts"

describe("the desktop, live", () => {
  const desk = desktopSession()

  test("the widget layout is rearranged by keyboard, stays after a reload, and stacks at phone width", async () => {
    const context = await desk.signedIn()
    const page = await desk.openDesktop(context)
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
          ((await (await context.request.get(`${desk.node.url}/api/desktop/widgets`)).json()) as { widgets: unknown })
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
    const stored = await context.request.put(`${desk.node.url}/api/desktop/widgets`, {
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
    const phone = await (await desk.signedIn({ viewport: { width: 390, height: 844 } })).newPage()
    await phone.goto(`${desk.node.url}/`)
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
    const context = await desk.signedIn()
    const page = await desk.openDesktop(context)
    await context.setOffline(true)
    await desk.liveState(page, "reconnecting").waitFor()
    // Raised from outside the desk.browser, which is offline.
    const response = await fetch(`${desk.node.url}/api/desktop/signals`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `${desk.session.name}=${desk.session.value}` },
      body: JSON.stringify({ title: "Raised while you were offline" })
    })
    expect(response.status).toBe(200)
    const { signal } = (await response.json()) as { signal: Signal }
    expect(await desk.card(page, signal).count()).toBe(0)

    await context.setOffline(false)
    await desk.liveState(page, "live").waitFor()
    await desk.card(page, signal).waitFor()
  })

  test("a socket closed under the page is reopened with backoff, and what came meanwhile appears", async () => {
    const context = await desk.signedIn()
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
    await page.goto(`${desk.node.url}/`)
    await desk.liveState(page, "live").waitFor()
    expect(sockets).toHaveLength(1)

    refuse = true
    await sockets[0].close({ code: 1011, reason: "the test drops it" })
    await desk.liveState(page, "reconnecting").waitFor()
    const signal = await desk.raise(context.request, { title: "Raised while the socket was down" })
    // The app keeps trying by itself; let one more attempt be refused before the node answers again.
    await expect.poll(() => refused, { timeout: 10_000 }).toBeGreaterThanOrEqual(1)
    expect(await desk.card(page, signal).count()).toBe(0)
    refuse = false
    await desk.liveState(page, "live").waitFor({ timeout: 15_000 })
    expect(sockets).toHaveLength(2)
    await desk.card(page, signal).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
  })

  test("signing out everywhere from another device closes the socket and the page goes to log in", async () => {
    const context = await desk.signedIn()
    const page = await desk.openDesktop(context)
    const breakage = watchForBreakage(page)
    const login = await fetch(`${desk.node.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: owner.email, password: owner.password })
    })
    expect(login.status).toBe(200)
    const elsewhere = sessionCookie(login)
    const everywhere = await fetch(`${desk.node.url}/api/auth/logout/all`, {
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

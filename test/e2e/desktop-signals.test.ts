import { describe, expect, test } from "vitest"
import type { Signal } from "../../actors/being/contract/signal.ts"
import { waitForDesktop, watchForBreakage } from "./flows.ts"
import { desktopSession, isLive } from "./desktop-support.ts"
import { isCall, owner } from "./flows.ts"

describe("the desktop, live", () => {
  const desk = desktopSession()

  test("a signal raised for the owner appears on the open desktop within a second, with everything it says", async () => {
    const context = await desk.signedIn({ timezoneId: "Pacific/Auckland" })
    const page = await desk.openDesktop(context)
    const breakage = watchForBreakage(page)
    // The greeting and the time follow the browser's zone, not the node's.
    await page.locator("desktop-now .zone").filter({ hasText: "Time zone: Pacific/Auckland" }).waitFor()
    await page.locator("desktop-signals .empty").filter({ hasText: "Nothing needs you right now." }).waitFor()

    const signal = await desk.raise(context.request, {
      kind: "reminder",
      title: "Water the plants",
      body: "The fern first.\nThen the rest.",
      priority: "high",
      dueAt: "2030-01-31T09:00:00Z"
    })
    await desk.card(page, signal).waitFor({ timeout: 1000 })

    const shown = desk.card(page, signal)
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
    const urgent = await desk.raise(context.request, {
      kind: "alert",
      title: "The disk is almost full",
      priority: "urgent"
    })
    await desk.card(page, urgent).waitFor({ timeout: 1000 })
    expect(await page.locator("desktop-signals li.signal").first().getAttribute("data-signal-id")).toBe(urgent.id)
    await page
      .locator('desktop-place [aria-live="assertive"]')
      .filter({ hasText: "Urgent signal: The disk is almost full" })
      .waitFor()
    expect(breakage).toEqual([])
  })

  test("the most pressing signal comes first: by priority, then the soonest due, then the newest, and live ones take their place", async () => {
    const context = await desk.signedIn()
    const page = await desk.openDesktop(context)
    const breakage = watchForBreakage(page)
    const raiseAll = async (inputs: ReadonlyArray<Record<string, unknown>>) => {
      const raisedNow: Array<Signal> = []
      for (const input of inputs) raisedNow.push(await desk.raise(context.request, input))
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
    await desk.card(page, high).waitFor()
    await expect.poll(order).toEqual([high.id, dueSooner.id, dueLater.id, noDue.id, low.id])

    // A signal raised now takes its place, not the top.
    const dueSoonest = await desk.raise(context.request, { title: "Water the garden", dueAt: "2030-01-15T09:00:00Z" })
    mine.add(dueSoonest.id)
    await desk.card(page, dueSoonest).waitFor()
    expect(await order()).toEqual([high.id, dueSoonest.id, dueSooner.id, dueLater.id, noDue.id, low.id])
    // The same order after a load.
    await page.reload()
    await desk.card(page, low).waitFor()
    expect(await order()).toEqual([high.id, dueSoonest.id, dueSooner.id, dueLater.id, noDue.id, low.id])
    expect(breakage).toEqual([])
  })

  test("a failed project's alert names the project by its title, linked to its page", async () => {
    const context = await desk.signedIn()
    const page = await desk.openDesktop(context)
    const breakage = watchForBreakage(page)
    // No model is configured here: the run fails at once and raises an alert from studio:<id>.
    const started = await context.request.post(`${desk.node.url}/api/studio/projects`, {
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
    const context = await desk.signedIn()
    const [first, second] = [await desk.openDesktop(context), await desk.openDesktop(context)]
    const signal = await desk.raise(context.request, desk.decision("Ship the release?"))
    await Promise.all([desk.card(first, signal).waitFor(), desk.card(second, signal).waitFor()])

    const answering = first.waitForResponse(isCall("POST", `/api/desktop/signals/${signal.id}/answer`))
    await desk.card(first, signal).getByRole("button", { name: "Approve" }).click()
    expect((await answering).status()).toBe(200)
    await Promise.all([
      desk.card(first, signal).waitFor({ state: "detached" }),
      desk.card(second, signal).waitFor({ state: "detached" })
    ])
    await first
      .locator("desktop-signals")
      .getByRole("status")
      .filter({ hasText: "You answered “Approve” to “Ship the release?”." })
      .waitFor()

    const answered = (await desk.listed(context.request, "answered")).find((candidate) => candidate.id === signal.id)
    expect(answered?.answer).toBe("yes")
    // Still gone after a reload: the desk.node, not just the page, has it answered.
    await second.reload()
    await waitForDesktop(second, owner)
    await second.locator("desktop-signals").waitFor()
    await expect.poll(() => desk.card(second, signal).count()).toBe(0)
  })

  test("a tab that missed the answer is told the node's 409 in words, and its list refreshes", async () => {
    const context = await desk.signedIn()
    const stale = await context.newPage()
    // This tab's socket loses every signal.updated on the way, as if it had missed them.
    await stale.routeWebSocket(isLive, (page) => {
      const server = page.connectToServer()
      server.onMessage((message) => {
        if (typeof message === "string" && (JSON.parse(message) as { type: string }).type === "signal.updated") return
        page.send(message)
      })
    })
    await stale.goto(`${desk.node.url}/`)
    await desk.liveState(stale, "live").waitFor()

    const signal = await desk.raise(context.request, desk.decision("Renew the domain?"))
    await desk.card(stale, signal).waitFor()
    const elsewhere = await context.request.post(`${desk.node.url}/api/desktop/signals/${signal.id}/answer`, {
      data: { optionId: "no" }
    })
    expect(elsewhere.status()).toBe(200)

    const refused = stale.waitForResponse(isCall("POST", `/api/desktop/signals/${signal.id}/answer`))
    await desk.card(stale, signal).getByRole("button", { name: "Approve" }).click()
    const refusal = await refused
    expect(refusal.status()).toBe(409)
    const body = (await refusal.json()) as { error: string; message: string }
    expect(body.error).toBe("signal_closed")
    await stale.locator("desktop-signals").getByRole("alert").filter({ hasText: body.message }).waitFor()
    await desk.card(stale, signal).waitFor({ state: "detached" })
  })

  test("any open signal can be dismissed", async () => {
    const context = await desk.signedIn()
    const page = await desk.openDesktop(context)
    const signal = await desk.raise(context.request, { kind: "insight", title: "You read a lot on Sundays" })
    await desk.card(page, signal).waitFor()
    const dismissing = page.waitForResponse(isCall("POST", `/api/desktop/signals/${signal.id}/dismiss`))
    await page.getByRole("button", { name: "Dismiss: You read a lot on Sundays" }).click()
    expect((await dismissing).status()).toBe(200)
    await desk.card(page, signal).waitFor({ state: "detached" })
    expect((await desk.listed(context.request, "dismissed")).map((candidate) => candidate.id)).toContain(signal.id)
    expect((await desk.listed(context.request, "open")).map((candidate) => candidate.id)).not.toContain(signal.id)
  })
})

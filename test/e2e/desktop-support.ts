/**
 * What the desktop's end-to-end files share: a node whose owner registered once (every browser
 * here shares that session: logins are rate limited), browsers signed in with it, tabs on the
 * desktop, and signals raised and listed through the API.
 */
import type { APIRequestContext, Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"
import type { Signal } from "../../actors/being/contract/signal.ts"
import { launchBrowser } from "./browser.ts"
import { owner, waitForDesktop } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

export const isLive = (url: URL) => url.pathname === "/api/ws"

/** The aria-label of the element that has the keyboard, through the shadow roots it sits in. */
export const focusedLabel = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    return active?.getAttribute("aria-label") ?? null
  })

/** The name and value of the session cookie a registration or log-in answered. */
export const sessionCookie = (response: globalThis.Response) => {
  const [pair] = response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith("svc_session="))!
    .split(";")
  const split = pair.indexOf("=")
  return { name: pair.slice(0, split), value: pair.slice(split + 1) }
}

/** Starts the node and the browser before the describe's tests; answers them and the calls bound to them. */
export const desktopSession = () => {
  const desk = {} as {
    node: RunningNode
    browser: Browser
    /** The owner's session cookie. */
    session: { readonly name: string; readonly value: string }
  }
  const contexts: Array<BrowserContext> = []
  let raised = 0

  beforeAll(async () => {
    ;[desk.node, desk.browser] = await Promise.all([startNode(), launchBrowser()])
    const response = await fetch(`${desk.node.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ ...owner, accessCode: desk.node.ownerCode })
    })
    expect(response.status).toBe(200)
    desk.session = sessionCookie(response)
  })

  afterAll(async () => {
    for (const context of contexts) await context.close()
    await desk.browser?.close()
    await desk.node?.stop()
  })

  /** A browser (its own cookie jar) where the owner is signed in. */
  const signedIn = async (options: BrowserContextOptions = {}): Promise<BrowserContext> => {
    const context = await desk.browser.newContext(options)
    contexts.push(context)
    await context.addCookies([{ ...desk.session, url: desk.node.url }])
    return context
  }

  /** A tab on the desktop, once its live channel has said hello. */
  const openDesktop = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage()
    await page.goto(`${desk.node.url}/`)
    await waitForDesktop(page, owner)
    await liveState(page, "live").waitFor()
    return page
  }

  const liveState = (page: Page, state: string) => page.locator(`node-rail .live[data-state="${state}"]`)

  /** Raises a signal on the owner's desktop with the owner's cookies; a distinct title each time. */
  const raise = async (request: APIRequestContext, input: Record<string, unknown> = {}): Promise<Signal> => {
    const response = await request.post(`${desk.node.url}/api/desktop/signals`, {
      data: { title: `Signal ${++raised}`, ...input }
    })
    expect(response.status()).toBe(200)
    const body = (await response.json()) as { signal: Signal; delivered: boolean }
    expect(body.delivered).toBe(true)
    return body.signal
  }

  const card = (page: Page, signal: Signal) => page.locator(`desktop-signals li.signal[data-signal-id="${signal.id}"]`)

  const listed = async (request: APIRequestContext, status: string): Promise<ReadonlyArray<Signal>> => {
    const response = await request.get(`${desk.node.url}/api/desktop/signals?status=${status}`)
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

  return Object.assign(desk, { signedIn, openDesktop, liveState, raise, card, listed, decision })
}

/**
 * The installable app and its notifications in Chromium, against a real node and the tests' own push service
 * (test/support/push-service.ts): the manifest's fields and icons load and Chromium finds the app installable; the
 * service worker registers at `/` and opens the shell offline, saying so, under the same content security policy;
 * "Notify this device" subscribes (the browser's permission granted in its context; the browser's push subscription
 * itself is made to point at the tests' push service, since the closed network has no vendor's); a decision the node
 * then pushes is shown by the service worker as a notification with its options as actions (none while a focused tab
 * of the node is open), and choosing an action answers the decision.
 */
import type { Browser, BrowserContext, Page, Worker } from "playwright-core"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { type PushService, startPushService } from "../support/push-service.ts"
import { until } from "../support/until.ts"
import { launchBrowser } from "./browser.ts"
import { type Person, call, cookieOf, registerThroughApi, watchForBreakage } from "./flows.ts"
import { type RunningNode, startNode } from "./node-host.ts"

const nora: Person = {
  displayName: "Nora Notified",
  handle: "nora",
  email: "nora@example.org",
  password: "nora-password-1"
}

describe("the installable app and its notifications", () => {
  let node: RunningNode
  let push: PushService
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let problems: ReadonlyArray<string>
  let cookie: string

  beforeAll(async () => {
    push = await startPushService()
    ;[node, browser] = await Promise.all([
      startNode({
        env: {
          ENCRYPTION_KEY: "a passphrase for the push flow",
          PUSH_ALLOW_LOOPBACK: "true",
          PUSH_CONTACT: "mailto:ops@example.org"
        }
      }),
      launchBrowser()
    ])
    cookie = cookieOf(await registerThroughApi(node.url, nora, node.ownerCode))
    push.nodeKey = String((await call(node.url, cookie, "GET", "/api/push/key")).publicKey)
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.grantPermissions(["notifications"], { origin: node.url })
    const [name, value] = cookie.split("=") as [string, string]
    await context.addCookies([{ name, value, url: node.url }])
    page = await context.newPage()
    problems = watchForBreakage(page)
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([node?.stop(), push?.close()])
  })

  test("the manifest is installable: its fields, its icons, Chromium's own check", async () => {
    await page.goto(node.url)
    const href = await page.locator('link[rel="manifest"]').getAttribute("href")
    expect(href).toBe("/manifest.webmanifest")
    const manifest = await page.evaluate(async (path) => (await fetch(path)).json(), href!)
    expect(manifest).toMatchObject({
      start_url: "/",
      display: "standalone",
      theme_color: "#3f51d6",
      background_color: "#f6f7f9",
      name: expect.any(String),
      short_name: expect.any(String)
    })
    const sizes = await page.evaluate(
      (icons: ReadonlyArray<{ src: string }>) =>
        Promise.all(
          icons.map(async ({ src }) => {
            const image = new Image()
            image.src = src
            await image.decode()
            return image.naturalWidth
          })
        ),
      manifest.icons
    )
    expect(sizes).toEqual([192, 512, 512])
    expect(manifest.icons.map((icon: { purpose: string }) => icon.purpose)).toEqual(["any", "any", "maskable"])
    await page.evaluate(() => navigator.serviceWorker.ready)
    const session = await context.newCDPSession(page)
    const { installabilityErrors } = (await session.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: ReadonlyArray<{ errorId: string }>
    }
    // A test's browser context is incognito, which Chromium does not install from; nothing else may stand in the way.
    expect(installabilityErrors.filter((error) => error.errorId !== "in-incognito")).toEqual([])
  })

  test("the service worker registers at / and opens the shell offline, saying so", async () => {
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)
    expect(scope).toBe(`${node.url}/`)
    await page.reload()
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true)
    // Offline for real: the node is down, so only the service worker's copy can answer.
    await node.halt()
    try {
      await page.reload()
      await page.locator("offline-notice").getByRole("status").waitFor()
      expect(await page.locator("offline-notice p").textContent()).toContain("You are offline")
      expect(await page.locator("node-app").count()).toBe(1)
      // No answer of the API was kept: asking for one offline fails.
      expect(
        await page.evaluate(() =>
          fetch("/api/auth/me").then(
            () => "answered",
            () => "failed"
          )
        )
      ).toBe("failed")
    } finally {
      await node.restart()
    }
    await page.reload()
    await expect.poll(() => page.locator("offline-notice p").count()).toBe(0)
    expect(problems).toEqual([])
  })

  test('"Notify this device" subscribes, and a pushed decision is answered from its notification', async () => {
    const device = push.subscribe("chromium")
    // The closed network has no vendor's push service: the browser's subscription is made to name the tests' one.
    await context.addInitScript((subscription) => {
      const made = {
        endpoint: subscription.endpoint,
        options: {},
        expirationTime: null,
        getKey: () => null,
        unsubscribe: async () => true,
        toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys })
      }
      PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
        ;(window as unknown as { askedWithKey: number }).askedWithKey = new Uint8Array(
          options?.applicationServerKey as ArrayBuffer
        ).length
        return made as unknown as PushSubscription
      }
    }, device)
    await page.goto(`${node.url}/settings?section=notifications`)
    const section = page.locator("settings-notifications")
    await section.getByRole("button", { name: "Notify this device" }).click()
    await section.getByText("will be notified").waitFor()
    expect(await page.evaluate(() => (window as unknown as { askedWithKey: number }).askedWithKey)).toBe(65)
    await section.getByText("(this device)").waitFor()
    expect(await section.locator("tr.device").count()).toBe(1)

    const raise = () =>
      call(node.url, cookie, "POST", "/api/desktop/signals", {
        kind: "decision",
        title: "Order more coffee?",
        body: "The beans run out on Friday.",
        options: [
          { id: "yes", label: "Order it" },
          { id: "no", label: "Not now" }
        ]
      })
    const worker: Worker = context.serviceWorkers()[0] ?? (await context.waitForEvent("serviceworker"))
    const deliver = (payload: Record<string, unknown>) =>
      worker.evaluate((data) => {
        const scope = self as unknown as { dispatchEvent(event: Event): boolean }
        const PushEventOf = (globalThis as unknown as { PushEvent: new (type: string, init: object) => Event })
          .PushEvent
        scope.dispatchEvent(new PushEventOf("push", { data: JSON.stringify(data) }))
      }, payload)
    const shown = () =>
      worker.evaluate(async () => {
        const registration = (self as unknown as { registration: ServiceWorkerRegistration }).registration
        return (await registration.getNotifications()).map((notification) => ({
          tag: notification.tag,
          title: notification.title,
          body: notification.body,
          actions: (
            notification as unknown as { actions: ReadonlyArray<{ action: string; title: string }> }
          ).actions.map(({ action, title }) => ({ action, title }))
        }))
      })

    // A focused tab of the node shows the signal itself: the push makes no notification.
    const seen = (await raise()) as { signal: { id: string } }
    const whileOpen = await until("the push of the first decision", () => push.received("chromium")[0])
    expect(whileOpen.payload).toMatchObject({ id: seen.signal.id, kind: "decision", title: "Order more coffee?" })
    await deliver(whileOpen.payload)

    // No tab of the node open: the notification, with the decision's options as actions (and only this one: the
    // first push, handled before it, showed none).
    const elsewhere = await context.newPage()
    await page.close()
    const asked = (await raise()) as { signal: { id: string } }
    const message = await until("the push of the second decision", () =>
      push.received("chromium").find((pushed) => pushed.payload.id === asked.signal.id)
    )
    expect(message.payload).toEqual({
      type: "signal",
      id: asked.signal.id,
      kind: "decision",
      title: "Order more coffee?",
      priority: "normal",
      url: `/?signal=${asked.signal.id}`
    })
    await deliver(message.payload)
    await expect.poll(shown).toEqual([
      {
        tag: asked.signal.id,
        title: "Order more coffee?",
        body: "A decision to make",
        actions: [
          { action: "yes", title: "Order it" },
          { action: "no", title: "Not now" }
        ]
      }
    ])

    await worker.evaluate(async () => {
      const scope = self as unknown as { registration: ServiceWorkerRegistration; dispatchEvent(event: Event): boolean }
      const [notification] = await scope.registration.getNotifications()
      const NotificationEventOf = (
        globalThis as unknown as { NotificationEvent: new (type: string, init: object) => Event }
      ).NotificationEvent
      try {
        scope.dispatchEvent(new NotificationEventOf("notificationclick", { notification, action: "yes" }))
      } catch {
        // A synthetic event may not extend its lifetime (waitUntil); the answer is already on its way.
      }
    })
    const answered = await until("the decision answered", async () => {
      const list = (await call(
        node.url,
        cookie,
        "GET",
        "/api/desktop/signals?status=answered&limit=10&offset=0"
      )) as unknown as ReadonlyArray<{ id: string; answer: unknown }>
      return list.find((signal) => signal.id === asked.signal.id)
    })
    expect(JSON.stringify(answered.answer)).toContain("yes")
    expect(await shown()).toEqual([])
    await elsewhere.close()
  })
})

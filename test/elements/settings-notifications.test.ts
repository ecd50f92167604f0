import { expect, fixture, html, waitUntil } from "@open-wc/testing"
import "../../ui/places/settings/settings-notifications.ts"
import type { SettingsNotifications } from "../../ui/places/settings/settings-notifications.ts"
import { fakeNode, textOf } from "./support/fake-node.ts"

const nodeKey = `B${"A".repeat(86)}`
const browserKeys = { p256dh: `B${"Q".repeat(86)}`, auth: "q".repeat(22) }
const phone = { id: "sub-phone", device: "Chrome on Android", createdAt: "2030-01-02T09:00:00.000Z" }
const laptop = { id: "sub-laptop", device: "Firefox on Linux", createdAt: "2030-01-03T09:00:00.000Z" }

const button = (el: SettingsNotifications, name: string) =>
  Array.from(el.shadowRoot!.querySelectorAll("button")).find((candidate) => candidate.textContent?.trim() === name)!

/** The browser's part, as the element asks it: permission, the worker's registration, its PushManager. */
const fakeBrowser = (permission: NotificationPermission) => {
  const asked: Array<number> = []
  const registration = {
    pushManager: {
      subscribe: async (options: PushSubscriptionOptionsInit) => {
        asked.push(new Uint8Array(options.applicationServerKey as ArrayBuffer).length)
        return {
          toJSON: () => ({
            endpoint: "https://push.example.org/send/abc",
            expirationTime: null,
            keys: browserKeys
          })
        }
      }
    }
  }
  const originalPermission = Notification.requestPermission
  const originalWorker = Object.getOwnPropertyDescriptor(Navigator.prototype, "serviceWorker")!
  Notification.requestPermission = async () => permission
  Object.defineProperty(navigator, "serviceWorker", {
    configurable: true,
    value: { register: async () => registration, ready: Promise.resolve(registration) }
  })
  return {
    asked,
    restore: () => {
      Notification.requestPermission = originalPermission
      delete (navigator as unknown as Record<string, unknown>).serviceWorker
      Object.defineProperty(Navigator.prototype, "serviceWorker", originalWorker)
    }
  }
}

describe("<settings-notifications>", () => {
  afterEach(() => localStorage.removeItem("node.push.subscription"))

  it("lists the person's devices, marks this one, and removes one", async () => {
    localStorage.setItem("node.push.subscription", phone.id)
    let devices = [phone, laptop]
    const node = fakeNode({
      "GET /api/push/subscriptions": () => ({ json: devices }),
      "DELETE /api/push/subscriptions/sub-laptop": () => {
        devices = [phone]
        return { status: 204 }
      }
    })
    const el = await fixture<SettingsNotifications>(html`<settings-notifications></settings-notifications>`)
    await waitUntil(() => el.shadowRoot!.querySelectorAll("tr.device").length === 2)
    expect(textOf(el)).to.contain("Chrome on Android (this device)")
    expect(textOf(el)).to.contain("Hush settings")
    const remove = el.shadowRoot!.querySelector<HTMLButtonElement>(
      'button[aria-label="Stop notifying Firefox on Linux"]'
    )!
    remove.click()
    await node.request("DELETE /api/push/subscriptions/sub-laptop")
    await waitUntil(() => el.shadowRoot!.querySelectorAll("tr.device").length === 1)
    expect(textOf(el)).to.contain("Firefox on Linux is no longer notified.")
  })

  it('"Notify this device" asks permission, subscribes with the node\'s key and tells the node', async () => {
    const browser = fakeBrowser("granted")
    try {
      let devices: Array<typeof phone> = []
      const node = fakeNode({
        "GET /api/push/subscriptions": () => ({ json: devices }),
        "GET /api/push/key": { json: { publicKey: nodeKey } },
        "POST /api/push/subscriptions": () => {
          devices = [phone]
          return { json: phone }
        }
      })
      const el = await fixture<SettingsNotifications>(html`<settings-notifications></settings-notifications>`)
      await waitUntil(() => textOf(el).includes("No device is notified yet."))
      button(el, "Notify this device").click()
      const sent = await node.request("POST /api/push/subscriptions")
      expect(sent.body).to.deep.equal({
        endpoint: "https://push.example.org/send/abc",
        keys: browserKeys
      })
      expect(browser.asked).to.deep.equal([65])
      await waitUntil(() => textOf(el).includes("Chrome on Android will be notified."))
      await waitUntil(() => textOf(el).includes("(this device)"))
      expect(localStorage.getItem("node.push.subscription")).to.equal(phone.id)
    } finally {
      browser.restore()
    }
  })

  it("says so when the browser does not allow notifications, and sends nothing", async () => {
    const browser = fakeBrowser("denied")
    try {
      const node = fakeNode({ "GET /api/push/subscriptions": { json: [] } })
      const el = await fixture<SettingsNotifications>(html`<settings-notifications></settings-notifications>`)
      button(el, "Notify this device").click()
      await waitUntil(() => textOf(el).includes("did not allow notifications"))
      expect(node.to("POST /api/push/subscriptions")).to.deep.equal([])
      expect(browser.asked).to.deep.equal([])
    } finally {
      browser.restore()
    }
  })

  it('"Send a test" says how many devices it went to', async () => {
    const node = fakeNode({
      "GET /api/push/subscriptions": { json: [phone, laptop] },
      "POST /api/push/test": { json: { signalId: "s-1", subscriptions: 2 } }
    })
    const el = await fixture<SettingsNotifications>(html`<settings-notifications></settings-notifications>`)
    button(el, "Send a test").click()
    await node.request("POST /api/push/test")
    await waitUntil(() => textOf(el).includes("Sent to your 2 devices."))
  })
})

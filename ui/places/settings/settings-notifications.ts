/**
 * Settings → Notifications: "Notify this device" (asks the browser's permission, subscribes it to Web Push with the
 * node's key and tells the node), the person's subscribed devices with remove, and "Send a test" (a system signal to
 * oneself, pushed like any other). What is sent is what reaches the desktop: the Hush settings decide.
 */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { PushSubscription as DeviceRow } from "../../../extensions/push/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { actionHeading, dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { request } from "../../api/client.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** Where this browser keeps the id of its own subscription, to mark it in the list. */
const THIS_DEVICE = "node.push.subscription"

/** base64url (the node's key) as the bytes `applicationServerKey` takes. */
const bytesOf = (base64url: string): Uint8Array<ArrayBuffer> => {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/")
  const text = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(text, (char) => char.charCodeAt(0))
}

const pushSupported = () => "serviceWorker" in navigator && "PushManager" in window && "Notification" in window

@customElement("settings-notifications")
export class SettingsNotifications extends LitElement {
  private readonly _devices = new ApiResource(this, (client) => client.push.listSubscriptions())

  private readonly _acting = new ApiAction(this)

  @state() private accessor _thisDevice = localStorage.getItem(THIS_DEVICE) ?? ""

  protected override render() {
    const busy = this._acting.busy
    return html`<section class="card" aria-labelledby="notifications-title">
      <h2 id="notifications-title">Notifications</h2>
      <p class="muted">
        Your node can notify this phone or computer when a signal reaches your desktop, even with the app closed. What is
        sent is decided by your <a href="/twin">Hush settings</a>: a nudge held in quiet hours comes when they end, one
        over your daily cap never.
      </p>
      <node-alert .message=${this._acting.error || this._devices.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      <div class="actions">
        <button type="button" ?disabled=${busy || !pushSupported()} @click=${this._notifyThisDevice}>Notify this device</button>
        <button class="secondary" type="button" ?disabled=${busy} @click=${this._sendTest}>Send a test</button>
      </div>
      ${pushSupported() ? "" : html`<p class="muted">This browser cannot receive notifications from a web app.</p>`}
      ${this._devices.render("Loading your devices…", (devices) => this._renderList(devices))}
    </section>`
  }

  private _renderList(devices: ReadonlyArray<DeviceRow>) {
    if (devices.length === 0) return html`<p class="muted">No device is notified yet.</p>`
    return dataTable(
      ["Device", "Since", actionHeading],
      devices.map(
        (device) => html`<tr class="device">
          <td>${device.device} ${device.id === this._thisDevice ? html`<strong>(this device)</strong>` : ""}</td>
          <td>${formatDateTime(device.createdAt)}</td>
          <td>
            <button
              class="danger"
              type="button"
              ?disabled=${this._acting.busy}
              aria-label=${`Stop notifying ${device.device}`}
              @click=${() => this._remove(device)}
            >
              Remove
            </button>
          </td>
        </tr>`
      )
    )
  }

  private readonly _notifyThisDevice = async () => {
    const permission = await Notification.requestPermission()
    if (permission !== "granted")
      return this._acting.fail("This browser did not allow notifications; allow them in its site settings.")
    const key = await request((client) => client.push.getKey())
    if (!key.ok) return this._acting.fail(key.failure.message)
    let subscription: PushSubscriptionJSON
    try {
      const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" })
      await navigator.serviceWorker.ready
      const made = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytesOf(key.value.publicKey)
      })
      subscription = made.toJSON()
    } catch (error) {
      return this._acting.fail(
        `This browser could not subscribe to notifications (${error instanceof Error ? error.message : String(error)}).`
      )
    }
    const { endpoint = "", keys = {} } = subscription
    const ok = await this._acting.run(
      (client) =>
        client.push.subscribe({ payload: { endpoint, keys: { p256dh: keys.p256dh ?? "", auth: keys.auth ?? "" } } }),
      (row) => {
        localStorage.setItem(THIS_DEVICE, row.id)
        this._thisDevice = row.id
        return `${row.device} will be notified.`
      }
    )
    if (ok) await this._devices.reload()
  }

  private readonly _sendTest = async () => {
    await this._acting.run(
      (client) => client.push.sendTest(),
      (sent) =>
        sent.subscriptions === 0
          ? "Sent to your desktop; no device is notified yet."
          : `Sent to ${sent.subscriptions === 1 ? "your device" : `your ${sent.subscriptions} devices`}.`
    )
  }

  private async _remove(device: DeviceRow) {
    const removed = await this._acting.run(
      (client) => client.push.deleteSubscription({ path: { id: device.id } }),
      () => `${device.device} is no longer notified.`
    )
    if (removed && device.id === this._thisDevice) {
      localStorage.removeItem(THIS_DEVICE)
      this._thisDevice = ""
    }
    await this._devices.reload()
  }

  static override styles = [sharedStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-notifications": SettingsNotifications
  }
}

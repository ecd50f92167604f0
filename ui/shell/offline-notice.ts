/**
 * A line at the top of the app while it cannot reach the node: the browser says it is offline, or the service worker
 * answered this page with its kept copy of the shell because the network did not (ui/sw/service-worker.ts; asked
 * once, by a message, so a page costs the node no request). Nothing of the node loads until it is back.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"

@customElement("offline-notice")
export class OfflineNotice extends LitElement {
  @state() private accessor _offline = !navigator.onLine

  /** Whether the service worker answered this page from its copy. */
  private _servedOffline = false

  private readonly _update = () => {
    this._offline = !navigator.onLine || this._servedOffline
  }

  private readonly _onWorkerMessage = (event: MessageEvent) => {
    const data = event.data as { type?: unknown; offline?: unknown } | null
    if (data?.type !== "served-offline") return
    this._servedOffline = data.offline === true
    this._update()
  }

  override connectedCallback(): void {
    super.connectedCallback()
    window.addEventListener("online", this._update)
    window.addEventListener("offline", this._update)
    const worker = "serviceWorker" in navigator ? navigator.serviceWorker : null
    worker?.addEventListener("message", this._onWorkerMessage)
    worker?.startMessages()
    worker?.controller?.postMessage("served-offline?")
  }

  override disconnectedCallback(): void {
    window.removeEventListener("online", this._update)
    window.removeEventListener("offline", this._update)
    if ("serviceWorker" in navigator) navigator.serviceWorker.removeEventListener("message", this._onWorkerMessage)
    super.disconnectedCallback()
  }

  override render() {
    if (!this._offline) return nothing
    return html`<p role="status">
      You are offline. This is the copy of the app kept on this device; what your node holds loads when you are back
      online.
    </p>`
  }

  static override styles = css`
    p {
      margin: 0;
      padding: 0.5rem 1rem;
      background: var(--node-warning-bg);
      color: var(--node-warning);
      font: inherit;
      text-align: center;
    }
  `
}

declare global {
  interface HTMLElementTagNameMap {
    "offline-notice": OfflineNotice
  }
}

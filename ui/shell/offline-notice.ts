/**
 * A line at the top of the app while the node cannot be reached: the browser says it is offline, or the node's health
 * route (never answered from a cache) does not answer. The installed app then opens from the service worker's copy of
 * the shell (ui/sw/service-worker.ts), and nothing of the node loads until it is back.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"

@customElement("offline-notice")
export class OfflineNotice extends LitElement {
  @state() private accessor _offline = !navigator.onLine

  private readonly _update = async () => {
    if (!navigator.onLine) {
      this._offline = true
      return
    }
    this._offline = await fetch("/api/health", { cache: "no-store" }).then(
      () => false,
      () => true
    )
  }

  override connectedCallback(): void {
    super.connectedCallback()
    window.addEventListener("online", this._update)
    window.addEventListener("offline", this._update)
    void this._update()
  }

  override disconnectedCallback(): void {
    window.removeEventListener("online", this._update)
    window.removeEventListener("offline", this._update)
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

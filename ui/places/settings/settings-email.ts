/**
 * The account's email address and whether it is confirmed. The "send a confirmation mail"
 * button exists only when the node can send mail (`emailConfigured`): no dead buttons.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { EmailStatus } from "../../../host/auth/schemas.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("settings-email")
export class SettingsEmail extends LitElement {
  @state() private accessor _status: EmailStatus | null = null

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  @state() private accessor _notice = ""

  override connectedCallback(): void {
    super.connectedCallback()
    void this._load()
  }

  protected override render() {
    const status = this._status
    return html`
      <section class="card" aria-labelledby="email-title">
        <h2 id="email-title">Email</h2>
        <node-alert .message=${this._error}></node-alert>
        <node-alert kind="success" .message=${this._notice}></node-alert>
        ${status === null ? html`<p class="muted" role="status">Loading…</p>` : this._renderStatus(status)}
      </section>
    `
  }

  private _renderStatus(status: EmailStatus) {
    return html`
      <p class="email-state">
        <strong>${status.email}</strong>:
        ${status.verified
          ? `confirmed${status.verifiedAt === null ? "" : ` on ${formatDateTime(status.verifiedAt)}`}.`
          : status.pending
            ? "not confirmed yet; a confirmation mail is on its way."
            : "not confirmed yet."}
      </p>
      ${status.verified
        ? nothing
        : status.emailConfigured
          ? html`<div class="actions">
              <button type="button" ?disabled=${this._busy} @click=${this._send}>
                ${status.pending ? "Send the confirmation mail again" : "Send a confirmation mail"}
              </button>
            </div>`
          : html`<p class="muted">This node has no mail settings, so it cannot send a confirmation mail.</p>`}
    `
  }

  private async _load(): Promise<void> {
    const result = await request((client) => client.auth.emailStatus())
    if (result.ok) this._status = result.value
    else this._error = result.failure.message
  }

  private readonly _send = async (): Promise<void> => {
    this._busy = true
    this._error = ""
    this._notice = ""
    const result = await request((client) => client.auth.sendVerification())
    this._busy = false
    if (result.ok) {
      this._status = result.value
      this._notice = `A confirmation mail is on its way to ${result.value.email}.`
    } else {
      this._error = result.failure.message
    }
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-email": SettingsEmail
  }
}

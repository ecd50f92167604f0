/**
 * The account's email address and whether it is confirmed. The "send a confirmation mail"
 * button exists only when the node can send mail (`emailConfigured`): no dead buttons.
 */
import { html, LitElement, nothing } from "lit"
import { customElement } from "lit/decorators.js"
import type { EmailStatus } from "../../../extensions/accounts/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("settings-email")
export class SettingsEmail extends LitElement {
  private readonly _status = new ApiResource(this, (client) => client.auth.emailStatus())

  private readonly _sending = new ApiAction(this)

  protected override render() {
    return html`
      <section class="card" aria-labelledby="email-title">
        <h2 id="email-title">Email</h2>
        <node-alert .message=${this._sending.error || this._status.error}></node-alert>
        <node-alert kind="success" .message=${this._sending.notice}></node-alert>
        ${this._status.render("Loading…", (status) => this._renderStatus(status))}
      </section>
    `
  }

  private _renderStatus(status: EmailStatus) {
    return html`
      <p class="email-state">
        <strong>${status.email}</strong>:
        ${
          status.verified
            ? `confirmed${status.verifiedAt === null ? "" : ` on ${formatDateTime(status.verifiedAt)}`}.`
            : status.pending
              ? "not confirmed yet; a confirmation mail is on its way."
              : "not confirmed yet."
        }
      </p>
      ${
        status.verified
          ? nothing
          : status.emailConfigured
            ? html`<div class="actions">
              <button type="button" ?disabled=${this._sending.busy} @click=${this._send}>
                ${status.pending ? "Send the confirmation mail again" : "Send a confirmation mail"}
              </button>
            </div>`
            : html`<p class="muted">This node has no mail settings, so it cannot send a confirmation mail.</p>`
      }
    `
  }

  /** The node answers the new status (now pending), so the section shows it without asking again. */
  private readonly _send = (): Promise<boolean> =>
    this._sending.run(
      (client) => client.auth.sendVerification(),
      (status) => {
        this._status.replace(status)
        return `A confirmation mail is on its way to ${status.email}.`
      }
    )

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-email": SettingsEmail
  }
}

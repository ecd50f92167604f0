/**
 * Invitations by mail: the node mints a code and mails it. The form exists only when the node
 * can send mail; the list of invitations already sent shows a mask of each code, never the
 * code, with whether the mail left and whether the code was spent.
 */
import { html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { InviteEmail } from "../../../host/auth/schemas.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("admin-invites")
export class AdminInvites extends LitElement {
  /** Whether the node can send mail (GET /api/auth/email). */
  @property({ type: Boolean }) accessor emailConfigured = false

  @state() private accessor _invites: ReadonlyArray<InviteEmail> | null = null

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  @state() private accessor _notice = ""

  override connectedCallback(): void {
    super.connectedCallback()
    void this._load()
  }

  protected override render() {
    return html`
      <section class="card" aria-labelledby="invites-title">
        <h2 id="invites-title">Invitations by mail</h2>
        ${this.emailConfigured
          ? html`<form @submit=${this._send}>
              <label>Email <input name="email" type="email" autocomplete="off" required maxlength="254" /></label>
              <label>Note <input name="note" maxlength="200" /></label>
              <div class="actions">
                <button type="submit" ?disabled=${this._busy}>${this._busy ? "Sending…" : "Send an invitation"}</button>
              </div>
            </form>`
          : html`<p class="muted">This node has no mail settings, so it cannot mail invitations. Mint a code above and pass it on yourself.</p>`}
        <node-alert .message=${this._error}></node-alert>
        <node-alert kind="success" .message=${this._notice}></node-alert>
        ${this._renderList()}
      </section>
    `
  }

  private _renderList() {
    const invites = this._invites
    if (invites === null) return html`<p class="muted" role="status">Loading invitations…</p>`
    if (invites.length === 0) return html`<p class="muted">No invitations sent yet.</p>`
    return html`<div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th><th scope="col">Code</th><th scope="col">Mail</th><th scope="col">Code state</th>
            <th scope="col">Sent</th>
          </tr>
        </thead>
        <tbody>
          ${invites.map(
            (invite) => html`<tr>
              <td>${invite.email}${invite.note === "" ? "" : html`<br /><span class="muted">${invite.note}</span>`}</td>
              <td><code>${invite.codeMask}</code></td>
              <td>${invite.sent ? "Sent" : `Not sent${invite.error === null ? "" : `: ${invite.error}`}`}</td>
              <td>${invite.spent ? "Used" : "Unused"}</td>
              <td>${formatDateTime(invite.createdAt)}</td>
            </tr>`
          )}
        </tbody>
      </table>
    </div>`
  }

  private async _load(): Promise<void> {
    const result = await request((client) => client.auth.listInvites())
    if (result.ok) this._invites = result.value
    else this._error = result.failure.message
  }

  private async _send(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const form = event.target as HTMLFormElement
    const data = new FormData(form)
    const email = String(data.get("email") ?? "")
    this._busy = true
    this._error = ""
    this._notice = ""
    const result = await request((client) =>
      client.auth.sendInvite({ payload: { email, note: String(data.get("note") ?? "") } })
    )
    this._busy = false
    if (!result.ok) {
      this._error = result.failure.message
      return
    }
    form.reset()
    if (result.value.sent) this._notice = `An invitation is on its way to ${result.value.email}.`
    else this._error = `The code was minted but the mail did not leave${result.value.error === null ? "" : `: ${result.value.error}`}.`
    await this._load()
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-invites": AdminInvites
  }
}

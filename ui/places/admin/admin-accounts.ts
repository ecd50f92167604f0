/**
 * Every account on the node. The owner can suspend one (it is signed out everywhere and cannot
 * log in) and lift the suspension; the owner's own account cannot be suspended.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { Being } from "../../../host/auth/schemas.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("admin-accounts")
export class AdminAccounts extends LitElement {
  @state() private accessor _beings: ReadonlyArray<Being> | null = null

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  override connectedCallback(): void {
    super.connectedCallback()
    void this._load()
  }

  protected override render() {
    const beings = this._beings
    return html`
      <section class="card" aria-labelledby="accounts-title">
        <h2 id="accounts-title">Accounts</h2>
        <node-alert .message=${this._error}></node-alert>
        ${beings === null
          ? html`<p class="muted" role="status">Loading accounts…</p>`
          : html`<div class="table-wrap">
              <table class="accounts">
                <thead>
                  <tr>
                    <th scope="col">Name</th><th scope="col">Email</th><th scope="col">Joined</th><th scope="col">State</th>
                    <th scope="col"><span class="muted">Action</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${beings.map((being) => this._renderRow(being))}
                </tbody>
              </table>
            </div>`}
      </section>
    `
  }

  private _renderRow(being: Being) {
    const name = `${being.displayName} (@${being.handle})`
    return html`<tr data-handle=${being.handle}>
      <td>${name}${being.isOwner ? html` <strong>owner</strong>` : nothing}</td>
      <td>${being.email} ${being.emailVerified ? "" : html`<span class="muted">(not confirmed)</span>`}</td>
      <td>${formatDateTime(being.createdAt)}</td>
      <td class="state">${being.suspended ? "Suspended" : "Active"}</td>
      <td>
        ${being.isOwner
          ? nothing
          : being.suspended
            ? html`<button class="secondary" type="button" ?disabled=${this._busy} aria-label=${`Lift the suspension of ${name}`}
                @click=${() => this._setSuspended(being.id, false)}>Unsuspend</button>`
            : html`<button class="danger" type="button" ?disabled=${this._busy} aria-label=${`Suspend ${name}`}
                @click=${() => this._setSuspended(being.id, true)}>Suspend</button>`}
      </td>
    </tr>`
  }

  private async _load(): Promise<void> {
    const result = await request((client) => client.auth.listBeings())
    if (result.ok) this._beings = result.value
    else this._error = result.failure.message
  }

  private async _setSuspended(id: string, suspended: boolean): Promise<void> {
    this._busy = true
    this._error = ""
    const result = await request((client) =>
      suspended ? client.auth.suspend({ path: { id } }) : client.auth.unsuspend({ path: { id } })
    )
    this._busy = false
    if (result.ok) this._beings = (this._beings ?? []).map((being) => (being.id === id ? result.value : being))
    else this._error = result.failure.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-accounts": AdminAccounts
  }
}

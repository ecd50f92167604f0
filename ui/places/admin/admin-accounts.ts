/**
 * Every account on the node. The owner can suspend one (it is signed out everywhere and cannot
 * log in) and lift the suspension; the owner's own account cannot be suspended. Suspending asks first.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, query } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import { actionHeading, dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("admin-accounts")
export class AdminAccounts extends LitElement {
  private readonly _beings = new ApiResource(this, (client) => client.auth.listBeings())

  private readonly _suspension = new ApiAction(this)

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  protected override render() {
    return html`
      <section class="card" aria-labelledby="accounts-title">
        <h2 id="accounts-title">Accounts</h2>
        <node-alert .message=${this._suspension.error || this._beings.error}></node-alert>
        ${this._beings.render("Loading accounts…", (beings) =>
          dataTable(
            ["Name", "Email", "Joined", "State", actionHeading],
            beings.map((being) => this._renderRow(being))
          )
        )}
        <confirm-dialog></confirm-dialog>
      </section>
    `
  }

  private _renderRow(being: Being) {
    const name = `${being.displayName} (@${being.handle})`
    const busy = this._suspension.busy
    return html`<tr data-handle=${being.handle}>
      <td>${name}${being.isOwner ? html` <strong>owner</strong>` : nothing}</td>
      <td>${being.email} ${being.emailVerified ? "" : html`<span class="muted">(not confirmed)</span>`}</td>
      <td>${formatDateTime(being.createdAt)}</td>
      <td class="state">${being.suspended ? "Suspended" : "Active"}</td>
      <td>
        ${
          being.isOwner
            ? nothing
            : being.suspended
              ? html`<button class="secondary" type="button" ?disabled=${busy} aria-label=${`Lift the suspension of ${name}`}
                @click=${() => this._setSuspended(being.id, false)}>Unsuspend</button>`
              : html`<button class="danger" type="button" ?disabled=${busy} aria-label=${`Suspend ${name}`}
                @click=${() => this._suspend(being, name)}>Suspend</button>`
        }
      </td>
    </tr>`
  }

  private async _suspend(being: Being, name: string): Promise<void> {
    const sure = await this._confirm.ask({
      title: `Suspend ${name}?`,
      message: "They are signed out everywhere at once and cannot log in until you lift the suspension.",
      confirm: "Suspend the account"
    })
    if (sure) await this._setSuspended(being.id, true)
  }

  /** The node answers the changed account, so only that row changes; no need to load them all again. */
  private _setSuspended(id: string, suspended: boolean): Promise<boolean> {
    return this._suspension.run(
      (client) => (suspended ? client.auth.suspend({ path: { id } }) : client.auth.unsuspend({ path: { id } })),
      (changed) => this._beings.replace((this._beings.value ?? []).map((being) => (being.id === id ? changed : being)))
    )
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-accounts": AdminAccounts
  }
}

/**
 * Invitations by mail: the node mints a code and mails it. The form exists only when the node
 * can send mail; the list of invitations already sent shows a mask of each code, never the
 * code, with whether the mail left and whether the code was spent: the newest first, a page at a
 * time.
 */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { InviteEmail } from "../../../extensions/accounts/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import { containerStyles, inlineFormStyles, sharedStyles } from "../../styles/shared-styles.ts"

@customElement("admin-invites")
export class AdminInvites extends LitElement {
  /** Whether the node can send mail (GET /api/auth/email). */
  @property({ type: Boolean }) accessor emailConfigured = false

  private readonly _invites = new PagedResource<InviteEmail>(this, (client, page) =>
    client.auth.listInvites({ urlParams: page })
  )

  private readonly _sending = new ApiAction(this)

  protected override render() {
    const busy = this._sending.busy
    return html`
      <section class="card" aria-labelledby="invites-title">
        <h2 id="invites-title">Invitations by mail</h2>
        ${
          this.emailConfigured
            ? html`<form class="inline" @submit=${this._send}>
              <label>Email <input name="email" type="email" autocomplete="off" required maxlength="254" /></label>
              <label>Note <input name="note" maxlength="200" /></label>
              <div class="actions">
                <button type="submit" ?disabled=${busy}>${busy ? "Sending…" : "Send an invitation"}</button>
              </div>
            </form>`
            : html`<p class="muted">This node has no mail settings, so it cannot mail invitations. Mint a code above and pass it on yourself.</p>`
        }
        <node-alert .message=${this._sending.error || this._invites.error}></node-alert>
        <node-alert kind="success" .message=${this._sending.notice}></node-alert>
        ${this._invites.render("Loading invitations…", (invites) => this._renderList(invites))}
        ${this._invites.renderMore("invitations")}
      </section>
    `
  }

  private _renderList(invites: ReadonlyArray<InviteEmail>) {
    if (invites.length === 0) return html`<p class="muted">No invitations sent yet.</p>`
    return dataTable(
      ["Email", "Code", "Mail", "Code state", "Sent"],
      invites.map(
        (invite) => html`<tr>
          <td>${invite.email}${invite.note === "" ? "" : html`<br /><span class="muted">${invite.note}</span>`}</td>
          <td><code>${invite.codeMask}</code></td>
          <td>${invite.sent ? "Sent" : `Not sent${invite.error === null ? "" : `: ${invite.error}`}`}</td>
          <td>${invite.spent ? "Used" : "Unused"}</td>
          <td>${formatDateTime(invite.createdAt)}</td>
        </tr>`
      )
    )
  }

  private readonly _send = onSubmit(async ({ clear, field }) => {
    const payload = { email: field("email"), note: field("note") }
    const answered = await this._sending.run(
      (client) => client.auth.sendInvite({ payload }),
      (invite) => {
        clear()
        if (invite.sent) return `An invitation is on its way to ${invite.email}.`
        // The node kept the invitation (its code works) though the mail failed: the owner must know.
        this._sending.fail(
          `The code was minted but the mail did not leave${invite.error === null ? "" : `: ${invite.error}`}.`
        )
      }
    )
    if (answered) await this._invites.reload()
  })

  static override styles = [sharedStyles, containerStyles, inlineFormStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-invites": AdminInvites
  }
}

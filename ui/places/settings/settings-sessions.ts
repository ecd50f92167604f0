/**
 * The account's sessions, this device's marked. Revoke one, sign out every other one, or
 * sign out everywhere (which ends this session too). Signing out others or everywhere asks first.
 */
import { html, LitElement } from "lit"
import { customElement, query } from "lit/decorators.js"
import type { SessionItem as SessionItemSchema } from "../../../extensions/accounts/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import { actionHeading, dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

type SessionItem = typeof SessionItemSchema.Type

@customElement("settings-sessions")
export class SettingsSessions extends LitElement {
  private readonly _sessions = new ApiResource(this, (client) => client.auth.listSessions())

  private readonly _signingOut = new ApiAction(this)

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  protected override render() {
    const busy = this._signingOut.busy
    return html`
      <section class="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p class="muted">Every browser or device where this account is signed in.</p>
        <node-alert .message=${this._signingOut.error || this._sessions.error}></node-alert>
        <node-alert kind="success" .message=${this._signingOut.notice}></node-alert>
        ${this._sessions.render("Loading sessions…", (sessions) => this._renderList(sessions))}
        <div class="actions">
          <button class="secondary" type="button" ?disabled=${busy} @click=${this._signOutOthers}>Sign out other sessions</button>
          <button class="danger" type="button" ?disabled=${busy} @click=${this._signOutEverywhere}>Sign out everywhere</button>
        </div>
        <confirm-dialog></confirm-dialog>
      </section>
    `
  }

  private _renderList(sessions: ReadonlyArray<SessionItem>) {
    return dataTable(
      ["Signed in", "Expires", actionHeading],
      sessions.map(
        (session) => html`<tr class=${session.current ? "session current" : "session"}>
          <td>${formatDateTime(session.createdAt)} ${session.current ? html`<strong>(this device)</strong>` : ""}</td>
          <td>${formatDateTime(session.expiresAt)}</td>
          <td>
            ${
              session.current
                ? html`<span class="muted">Current</span>`
                : html`<button
                  class="danger"
                  type="button"
                  ?disabled=${this._signingOut.busy}
                  aria-label=${`Revoke the session signed in ${formatDateTime(session.createdAt)}`}
                  @click=${() => this._revoke(session.id)}
                >
                  Revoke
                </button>`
            }
          </td>
        </tr>`
      )
    )
  }

  // Both reload after a refusal too: the list may be out of date, which is often why it failed.
  private async _revoke(id: string): Promise<void> {
    await this._signingOut.run(
      (client) => client.auth.revokeSession({ path: { id } }),
      () => "That session is signed out."
    )
    await this._sessions.reload()
  }

  private readonly _signOutOthers = async (): Promise<void> => {
    const sure = await this._confirm.ask({
      title: "Sign out every other session?",
      message: "Every other browser and device signed in to this account is signed out. This one stays signed in.",
      confirm: "Sign out the others"
    })
    if (!sure) return
    await this._signingOut.run(
      (client) => client.auth.revokeOtherSessions(),
      ({ revoked }) =>
        revoked === 0
          ? "There were no other sessions."
          : `Signed out ${revoked} other session${revoked === 1 ? "" : "s"}.`
    )
    await this._sessions.reload()
  }

  /** This session ends too, so the shell takes the person to log in. */
  private readonly _signOutEverywhere = async (): Promise<void> => {
    const sure = await this._confirm.ask({
      title: "Sign out everywhere?",
      message: "Every session of this account ends, this one too: you will have to log in again on every device.",
      confirm: "Sign out everywhere"
    })
    if (!sure) return
    await this._signingOut.run(
      (client) => client.auth.logoutAll(),
      () => fireEvent(this, "session-changed", { being: null })
    )
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-sessions": SettingsSessions
  }
}

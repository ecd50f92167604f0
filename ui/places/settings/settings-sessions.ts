/**
 * The account's sessions, this device's marked. Revoke one, sign out every other one, or
 * sign out everywhere (which ends this session too).
 */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { SessionItem as SessionItemSchema } from "../../../host/auth/schemas.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

type SessionItem = typeof SessionItemSchema.Type

@customElement("settings-sessions")
export class SettingsSessions extends LitElement {
  @state() private accessor _sessions: ReadonlyArray<SessionItem> | null = null

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  @state() private accessor _notice = ""

  override connectedCallback(): void {
    super.connectedCallback()
    void this._load()
  }

  protected override render() {
    const sessions = this._sessions
    return html`
      <section class="card" aria-labelledby="sessions-title">
        <h2 id="sessions-title">Sessions</h2>
        <p class="muted">Every browser or device where this account is signed in.</p>
        <node-alert .message=${this._error}></node-alert>
        <node-alert kind="success" .message=${this._notice}></node-alert>
        ${sessions === null
          ? html`<p class="muted" role="status">Loading sessions…</p>`
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr><th scope="col">Signed in</th><th scope="col">Expires</th><th scope="col"><span class="muted">Action</span></th></tr>
                </thead>
                <tbody>
                  ${sessions.map(
                    (session) => html`<tr class=${session.current ? "session current" : "session"}>
                      <td>${formatDateTime(session.createdAt)} ${session.current ? html`<strong>(this device)</strong>` : ""}</td>
                      <td>${formatDateTime(session.expiresAt)}</td>
                      <td>
                        ${session.current
                          ? html`<span class="muted">Current</span>`
                          : html`<button
                              class="danger"
                              type="button"
                              ?disabled=${this._busy}
                              aria-label=${`Revoke the session signed in ${formatDateTime(session.createdAt)}`}
                              @click=${() => this._revoke(session.id)}
                            >
                              Revoke
                            </button>`}
                      </td>
                    </tr>`
                  )}
                </tbody>
              </table>
            </div>`}
        <div class="actions">
          <button class="secondary" type="button" ?disabled=${this._busy} @click=${this._signOutOthers}>Sign out other sessions</button>
          <button class="danger" type="button" ?disabled=${this._busy} @click=${this._signOutEverywhere}>Sign out everywhere</button>
        </div>
      </section>
    `
  }

  private async _load(): Promise<void> {
    const result = await request((client) => client.auth.listSessions())
    if (result.ok) this._sessions = result.value
    else this._error = result.failure.message
  }

  private async _run(action: () => Promise<{ ok: boolean; message: string }>): Promise<void> {
    this._busy = true
    this._error = ""
    this._notice = ""
    const outcome = await action()
    this._busy = false
    if (outcome.ok) this._notice = outcome.message
    else this._error = outcome.message
    await this._load()
  }

  private _revoke(id: string): Promise<void> {
    return this._run(async () => {
      const result = await request((client) => client.auth.revokeSession({ path: { id } }))
      return result.ok ? { ok: true, message: "That session is signed out." } : { ok: false, message: result.failure.message }
    })
  }

  private readonly _signOutOthers = (): Promise<void> =>
    this._run(async () => {
      const result = await request((client) => client.auth.revokeOtherSessions())
      if (!result.ok) return { ok: false, message: result.failure.message }
      const count = result.value.revoked
      return { ok: true, message: count === 0 ? "There were no other sessions." : `Signed out ${count} other session${count === 1 ? "" : "s"}.` }
    })

  private readonly _signOutEverywhere = async (): Promise<void> => {
    this._busy = true
    this._error = ""
    const result = await request((client) => client.auth.logoutAll())
    this._busy = false
    if (result.ok) fireEvent(this, "session-changed", { being: null })
    else this._error = result.failure.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-sessions": SettingsSessions
  }
}

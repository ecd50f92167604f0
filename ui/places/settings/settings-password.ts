/**
 * Changing the account's password: the current one proves it is the account's person at this
 * device, the new one is typed twice. Every other session ends; this one stays signed in.
 */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("settings-password")
export class SettingsPassword extends LitElement {
  private readonly _changing = new ApiAction(this)

  protected override render() {
    const busy = this._changing.busy
    return html`
      <section class="card" aria-labelledby="password-title">
        <h2 id="password-title">Password</h2>
        <p class="muted">Changing it signs out every other session of this account; this one stays signed in.</p>
        <form @submit=${this._change}>
          <label
            >Current password
            <input name="currentPassword" type="password" autocomplete="current-password" required />
          </label>
          <label
            >New password
            <input name="newPassword" type="password" autocomplete="new-password" required minlength="8" />
          </label>
          <label
            >The new password again
            <input name="confirm" type="password" autocomplete="new-password" required minlength="8" />
          </label>
          <node-alert .message=${this._changing.error}></node-alert>
          <node-alert kind="success" .message=${this._changing.notice}></node-alert>
          <div class="actions">
            <button type="submit" ?disabled=${busy}>${busy ? "Changing…" : "Change the password"}</button>
          </div>
        </form>
      </section>
    `
  }

  private readonly _change = onSubmit(async ({ field, form }) => {
    const newPassword = field("newPassword")
    // The node cannot tell a typo from a choice; two equal fields can.
    if (newPassword !== field("confirm"))
      return this._changing.fail("The two new passwords differ. Type the same password twice.")
    const changed = await this._changing.run(
      (client) => client.auth.changePassword({ payload: { currentPassword: field("currentPassword"), newPassword } }),
      ({ revoked }) =>
        `Your password is changed.${revoked === 0 ? "" : ` ${revoked} other session${revoked === 1 ? " was" : "s were"} signed out.`}`
    )
    // Passwords do not linger in a form once they have done their job.
    if (changed) form.reset()
  })

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-password": SettingsPassword
  }
}

/**
 * Register with an access code. `code` comes from the link's `?code=` and fills the code
 * field; the node decides whether the code is good and says why not. While nobody owns the node,
 * it also offers a restore from a backup (./restore-backup.ts).
 */
import { html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { authStyles } from "../../styles/auth-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./restore-backup.ts"

@customElement("register-place")
export class RegisterPlace extends LitElement {
  /** The access code to start with (from the invitation link). */
  @property() accessor code = ""

  /** A backup was restored: the node has its owner, so only the restore's sign-in is left to show. */
  @state() private accessor _restored = false

  private readonly _registration = new ApiAction(this)

  protected override render() {
    const busy = this._registration.busy
    // The restore stays where it is in the template, so what it shows survives the register form going away.
    return html`${this._restored ? nothing : this._renderRegistration(busy)}
      <restore-backup @backup-restored=${() => (this._restored = true)}></restore-backup>`
  }

  private _renderRegistration(busy: boolean) {
    return html`
      <h1>Register</h1>
      <section class="card">
        <p class="muted">Joining this node takes an access code from its owner.</p>
        <form @submit=${this._submit}>
          <label>Access code <input name="accessCode" autocomplete="off" required .value=${this.code} /></label>
          <label>Display name <input name="displayName" autocomplete="name" required maxlength="80" /></label>
          <label
            >Handle
            <input
              name="handle"
              autocomplete="username"
              required
              pattern="[a-z0-9_]{3,30}"
              title="3 to 30 lowercase letters, digits or _"
              aria-describedby="handle-help"
            />
          </label>
          <span id="handle-help" class="muted">3 to 30 lowercase letters, digits or _.</span>
          <label>Email <input name="email" type="email" autocomplete="email" required /></label>
          <label
            >Password
            <input
              name="password"
              type="password"
              autocomplete="new-password"
              required
              minlength="8"
              aria-describedby="password-help"
            />
          </label>
          <span id="password-help" class="muted">At least 8 characters.</span>
          <node-alert .message=${this._registration.error}></node-alert>
          <div class="actions">
            <button type="submit" ?disabled=${busy}>${busy ? "Registering…" : "Register"}</button>
          </div>
        </form>
      </section>
      <p class="muted">No code? <a href="/waitlist">Join the waitlist</a>. Have an account? <a href="/login">Log in</a>.</p>
    `
  }

  private readonly _submit = onSubmit(({ field }) => {
    const payload = {
      accessCode: field("accessCode"),
      displayName: field("displayName"),
      handle: field("handle"),
      email: field("email"),
      password: field("password")
    }
    return this._registration.run(
      (client) => client.authPublic.register({ payload }),
      ({ being }) => fireEvent(this, "session-changed", { being })
    )
  })

  static override styles = [sharedStyles, authStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "register-place": RegisterPlace
  }
}

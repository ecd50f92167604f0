/** Log in with email and password; the node sets the session cookie. */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { authStyles } from "../../styles/auth-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("login-place")
export class LoginPlace extends LitElement {
  private readonly _login = new ApiAction(this)

  protected override render() {
    const busy = this._login.busy
    return html`
      <h1>Log in</h1>
      <section class="card">
        <form @submit=${this._submit}>
          <label>Email <input name="email" type="email" autocomplete="email" required /></label>
          <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
          <node-alert .message=${this._login.error}></node-alert>
          <div class="actions">
            <button type="submit" ?disabled=${busy}>${busy ? "Logging in…" : "Log in"}</button>
          </div>
        </form>
      </section>
      <p><a href="/reset">Forgot your password?</a></p>
      <p class="muted">No account? <a href="/register">Register with an access code</a> or <a href="/waitlist">join the waitlist</a>.</p>
    `
  }

  private readonly _submit = onSubmit(({ field }) =>
    this._login.run(
      (client) => client.authPublic.login({ payload: { email: field("email"), password: field("password") } }),
      ({ being }) => fireEvent(this, "session-changed", { being })
    )
  )

  static override styles = [sharedStyles, authStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "login-place": LoginPlace
  }
}

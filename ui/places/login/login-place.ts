/** Log in with email and password; the node sets the session cookie. */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("login-place")
export class LoginPlace extends LitElement {
  @state() private accessor _busy = false

  @state() private accessor _error = ""

  protected override render() {
    return html`
      <h1>Log in</h1>
      <section class="card">
        <form @submit=${this._submit}>
          <label>Email <input name="email" type="email" autocomplete="email" required /></label>
          <label>Password <input name="password" type="password" autocomplete="current-password" required /></label>
          <node-alert .message=${this._error}></node-alert>
          <div class="actions">
            <button type="submit" ?disabled=${this._busy}>${this._busy ? "Logging in…" : "Log in"}</button>
          </div>
        </form>
      </section>
      <p><a href="/reset">Forgot your password?</a></p>
      <p class="muted">No account? <a href="/register">Register with an access code</a> or <a href="/waitlist">join the waitlist</a>.</p>
    `
  }

  private async _submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const data = new FormData(event.target as HTMLFormElement)
    this._busy = true
    this._error = ""
    const result = await request((client) =>
      client.authPublic.login({ payload: { email: String(data.get("email")), password: String(data.get("password")) } })
    )
    this._busy = false
    if (result.ok) fireEvent(this, "session-changed", { being: result.value.being })
    else this._error = result.failure.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "login-place": LoginPlace
  }
}

/**
 * Register with an access code. `code` comes from the link's `?code=` and fills the code
 * field; the node decides whether the code is good and says why not.
 */
import { html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("register-place")
export class RegisterPlace extends LitElement {
  /** The access code to start with (from the invitation link). */
  @property() accessor code = ""

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  protected override render() {
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
          <node-alert .message=${this._error}></node-alert>
          <div class="actions">
            <button type="submit" ?disabled=${this._busy}>${this._busy ? "Registering…" : "Register"}</button>
          </div>
        </form>
      </section>
      <p class="muted">No code? <a href="/waitlist">Join the waitlist</a>. Have an account? <a href="/login">Log in</a>.</p>
    `
  }

  private async _submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const data = new FormData(event.target as HTMLFormElement)
    const field = (name: string) => String(data.get(name) ?? "")
    this._busy = true
    this._error = ""
    const result = await request((client) =>
      client.authPublic.register({
        payload: {
          accessCode: field("accessCode"),
          displayName: field("displayName"),
          handle: field("handle"),
          email: field("email"),
          password: field("password")
        }
      })
    )
    this._busy = false
    if (result.ok) fireEvent(this, "session-changed", { being: result.value.being })
    else this._error = result.failure.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "register-place": RegisterPlace
  }
}

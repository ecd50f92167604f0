/**
 * Password reset. Without a token: ask for a reset link (the node answers the same whether
 * or not it knows the address). With `?token=` from that link: set a new password.
 */
import { html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("reset-place")
export class ResetPlace extends LitElement {
  /** The token from the link's `?token=`; empty shows the request form. */
  @property() accessor token = ""

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  @state() private accessor _done = false

  protected override render() {
    return html`
      <h1>${this.token === "" ? "Reset your password" : "Set a new password"}</h1>
      <section class="card">${this.token === "" ? this._renderRequest() : this._renderSetPassword()}</section>
      <p><a href="/login">Back to log in</a></p>
    `
  }

  private _renderRequest() {
    if (this._done) {
      return html`<node-alert
        kind="success"
        message="If an account uses that address, a reset link is on its way. Check your mail."
      ></node-alert>`
    }
    return html`<form @submit=${this._requestLink}>
      <label>Email <input name="email" type="email" autocomplete="email" required /></label>
      <node-alert .message=${this._error}></node-alert>
      <div class="actions">
        <button type="submit" ?disabled=${this._busy}>${this._busy ? "Sending…" : "Send a reset link"}</button>
      </div>
    </form>`
  }

  private _renderSetPassword() {
    if (this._done) {
      return html`<node-alert
        kind="success"
        message="Your new password is set, and every session of your account was signed out. Log in with the new password."
      ></node-alert>`
    }
    return html`<form @submit=${this._setPassword}>
      <label
        >New password
        <input name="password" type="password" autocomplete="new-password" required minlength="8" />
      </label>
      <label
        >The same password again
        <input name="confirm" type="password" autocomplete="new-password" required minlength="8" />
      </label>
      <node-alert .message=${this._error}></node-alert>
      <div class="actions">
        <button type="submit" ?disabled=${this._busy}>${this._busy ? "Saving…" : "Set the password"}</button>
      </div>
    </form>`
  }

  private async _requestLink(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const email = String(new FormData(event.target as HTMLFormElement).get("email") ?? "")
    this._busy = true
    this._error = ""
    const result = await request((client) => client.authPublic.requestPasswordReset({ payload: { email } }))
    this._busy = false
    if (result.ok) this._done = true
    else this._error = result.failure.message
  }

  private async _setPassword(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const data = new FormData(event.target as HTMLFormElement)
    const password = String(data.get("password") ?? "")
    if (password !== String(data.get("confirm") ?? "")) {
      this._error = "The two passwords differ. Type the same password twice."
      return
    }
    this._busy = true
    this._error = ""
    const token = this.token
    const result = await request((client) => client.authPublic.resetPassword({ payload: { token, password } }))
    this._busy = false
    if (result.ok) this._done = true
    else this._error = result.failure.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "reset-place": ResetPlace
  }
}

/**
 * Password reset. Without a token: ask for a reset link (the node answers the same whether
 * or not it knows the address). With `?token=` from that link: set a new password.
 */
import { html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { authStyles } from "../../styles/auth-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("reset-place")
export class ResetPlace extends LitElement {
  /** The token from the link's `?token=`; empty shows the request form. */
  @property() accessor token = ""

  /** Asking for a link or setting the password: the place shows one form at a time. */
  private readonly _sending = new ApiAction(this)

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
      <node-alert .message=${this._sending.error}></node-alert>
      <div class="actions">
        <button type="submit" ?disabled=${this._sending.busy}>${this._sending.busy ? "Sending…" : "Send a reset link"}</button>
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
      <node-alert .message=${this._sending.error}></node-alert>
      <div class="actions">
        <button type="submit" ?disabled=${this._sending.busy}>${this._sending.busy ? "Saving…" : "Set the password"}</button>
      </div>
    </form>`
  }

  private readonly _requestLink = onSubmit(({ field }) => {
    const email = field("email")
    return this._sending.run((client) => client.authPublic.requestPasswordReset({ payload: { email } }), this._finish)
  })

  private readonly _setPassword = onSubmit(({ field }) => {
    const password = field("password")
    // The node cannot tell a typo from a choice; two equal fields can.
    if (password !== field("confirm"))
      return this._sending.fail("The two passwords differ. Type the same password twice.")
    const token = this.token
    return this._sending.run(
      (client) => client.authPublic.resetPassword({ payload: { token, password } }),
      this._finish
    )
  })

  private readonly _finish = (): void => {
    this._done = true
  }

  static override styles = [sharedStyles, authStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "reset-place": ResetPlace
  }
}

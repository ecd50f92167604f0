/** The link from the verification mail: sends its token once and says how it went. */
import { html, LitElement, type PropertyValues } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import { authStyles } from "../../styles/auth-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

type Outcome =
  | { readonly state: "working" }
  | { readonly state: "done" }
  | { readonly state: "failed"; readonly message: string }

@customElement("verify-place")
export class VerifyPlace extends LitElement {
  /** The token from the link's `?token=`. */
  @property() accessor token = ""

  @state() private accessor _outcome: Outcome = { state: "working" }

  private _sentToken: string | null = null

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("token") && this.token !== "" && this.token !== this._sentToken) void this._verify(this.token)
  }

  protected override render() {
    return html`
      <h1>Confirm your email address</h1>
      <section class="card">${this._renderOutcome()}</section>
    `
  }

  private _renderOutcome() {
    if (this.token === "") {
      return html`<node-alert
        message="This link carries no confirmation token. Open the link from the mail again, or send a new one from Settings."
      ></node-alert>`
    }
    switch (this._outcome.state) {
      case "working":
        return html`<p role="status">Confirming…</p>`
      case "done":
        return html`<node-alert kind="success" message="Your email address is confirmed."></node-alert>
          <p><a href="/">Go home</a></p>`
      case "failed":
        return html`<node-alert .message=${this._outcome.message}></node-alert>
          <p class="muted">You can send a new confirmation mail from <a href="/settings">Settings</a>.</p>`
    }
  }

  private async _verify(token: string): Promise<void> {
    this._sentToken = token
    this._outcome = { state: "working" }
    const result = await request((client) => client.authPublic.verifyEmail({ payload: { token } }))
    this._outcome = result.ok ? { state: "done" } : { state: "failed", message: result.failure.message }
  }

  static override styles = [sharedStyles, authStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "verify-place": VerifyPlace
  }
}

/** The public waitlist: leave an address and a word on why; the owner reads the list. */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { authStyles } from "../../styles/auth-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("waitlist-place")
export class WaitlistPlace extends LitElement {
  private readonly _joining = new ApiAction(this)

  @state() private accessor _joined = false

  protected override render() {
    const busy = this._joining.busy
    return html`
      <h1>Join the waitlist</h1>
      <section class="card">
        ${
          this._joined
            ? html`<node-alert
              kind="success"
              message="You are on the waitlist. The owner of this node reads it and sends access codes by hand."
            ></node-alert>`
            : html`<p class="muted">This node is invitation only. Leave your address and the owner may send you a code.</p>
              <form @submit=${this._submit}>
                <label>Email <input name="email" type="email" autocomplete="email" required maxlength="254" /></label>
                <label>Name <input name="name" autocomplete="name" maxlength="120" /></label>
                <label>Why you would like to join <textarea name="why" maxlength="2000"></textarea></label>
                <node-alert .message=${this._joining.error}></node-alert>
                <div class="actions">
                  <button type="submit" ?disabled=${busy}>${busy ? "Sending…" : "Join the waitlist"}</button>
                </div>
              </form>`
        }
      </section>
      <p class="muted">Have a code? <a href="/register">Register</a>.</p>
    `
  }

  private readonly _submit = onSubmit(({ field }) => {
    const payload = { email: field("email"), name: field("name"), why: field("why") }
    return this._joining.run(
      (client) => client.authPublic.joinWaitlist({ payload }),
      () => {
        this._joined = true
      }
    )
  })

  static override styles = [sharedStyles, authStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "waitlist-place": WaitlistPlace
  }
}

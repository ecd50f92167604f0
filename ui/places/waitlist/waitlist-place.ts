/** The public waitlist: leave an address and a word on why; the owner reads the list. */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("waitlist-place")
export class WaitlistPlace extends LitElement {
  @state() private accessor _busy = false

  @state() private accessor _error = ""

  @state() private accessor _joined = false

  protected override render() {
    return html`
      <h1>Join the waitlist</h1>
      <section class="card">
        ${this._joined
          ? html`<node-alert
              kind="success"
              message="You are on the waitlist. The owner of this node reads it and sends access codes by hand."
            ></node-alert>`
          : html`<p class="muted">This node is invitation only. Leave your address and the owner may send you a code.</p>
              <form @submit=${this._submit}>
                <label>Email <input name="email" type="email" autocomplete="email" required maxlength="254" /></label>
                <label>Name <input name="name" autocomplete="name" maxlength="120" /></label>
                <label>Why you would like to join <textarea name="why" maxlength="2000"></textarea></label>
                <node-alert .message=${this._error}></node-alert>
                <div class="actions">
                  <button type="submit" ?disabled=${this._busy}>${this._busy ? "Sending…" : "Join the waitlist"}</button>
                </div>
              </form>`}
      </section>
      <p class="muted">Have a code? <a href="/register">Register</a>.</p>
    `
  }

  private async _submit(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const data = new FormData(event.target as HTMLFormElement)
    const field = (name: string) => String(data.get(name) ?? "")
    this._busy = true
    this._error = ""
    const result = await request((client) =>
      client.authPublic.joinWaitlist({ payload: { email: field("email"), name: field("name"), why: field("why") } })
    )
    this._busy = false
    if (result.ok) this._joined = true
    else this._error = result.failure.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "waitlist-place": WaitlistPlace
  }
}

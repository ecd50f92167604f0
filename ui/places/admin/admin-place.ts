/**
 * Admin, for the owner: access codes, the waitlist, invitations by mail and accounts. The
 * node decides who may see it: the place first asks for the code list, and anyone the node
 * refuses (403) reads the refusal in words instead of the tools.
 */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./admin-accounts.ts"
import "./admin-codes.ts"
import "./admin-invites.ts"
import "./admin-waitlist.ts"

type Access =
  | { readonly state: "checking" }
  | { readonly state: "allowed"; readonly emailConfigured: boolean }
  | { readonly state: "refused"; readonly message: string }
  | { readonly state: "failed"; readonly message: string }

@customElement("admin-place")
export class AdminPlace extends LitElement {
  @state() private accessor _access: Access = { state: "checking" }

  override connectedCallback(): void {
    super.connectedCallback()
    void this._check()
  }

  // One heading whatever the state: a heading drawn anew per state would drop the keyboard the shell gave it.
  protected override render() {
    return html`<h1>Admin</h1>
      ${this._renderAccess()}`
  }

  private _renderAccess() {
    const access = this._access
    switch (access.state) {
      case "checking":
        return html`<p class="muted" role="status">Checking access…</p>`
      case "refused":
        return html`<node-alert class="refusal" .message=${access.message}></node-alert>
          <p class="muted">Admin belongs to the owner of this node. <a href="/">Go home</a></p>`
      case "failed":
        return html`<node-alert .message=${access.message}></node-alert>
          <button type="button" @click=${this._check}>Try again</button>`
      case "allowed":
        return html`<admin-codes></admin-codes>
          <admin-invites .emailConfigured=${access.emailConfigured}></admin-invites>
          <admin-waitlist></admin-waitlist>
          <admin-accounts></admin-accounts>`
    }
  }

  private readonly _check = async (): Promise<void> => {
    this._access = { state: "checking" }
    const [codes, email] = await Promise.all([
      request((client) => client.auth.listCodes({ urlParams: { limit: 1, offset: 0 } })),
      request((client) => client.auth.emailStatus())
    ])
    if (!codes.ok) {
      this._access =
        codes.failure.status === 403
          ? { state: "refused", message: codes.failure.message }
          : { state: "failed", message: codes.failure.message }
    } else if (!email.ok) {
      this._access = { state: "failed", message: email.failure.message }
    } else {
      this._access = { state: "allowed", emailConfigured: email.value.emailConfigured }
    }
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-place": AdminPlace
  }
}

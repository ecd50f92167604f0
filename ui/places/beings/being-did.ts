/**
 * A being's own did on its page (`GET /api/federation/me`): the address a person on another node
 * needs to write to it, to read out or copy.
 */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/did-copy.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("being-did")
export class BeingDid extends LitElement {
  private readonly _me = new ApiResource(this, (client) => client.federation.me())

  protected override render() {
    return html`<section class="card" aria-labelledby="did-title">
      <h2 id="did-title">Your did</h2>
      <p class="muted">Give it to someone on another node so they can write to you.</p>
      <node-alert .message=${this._me.error}></node-alert>
      ${this._me.render("Loading your did…", (me) => html`<did-copy label="your did" .did=${me.did}></did-copy>`)}
    </section>`
  }

  static override styles = [sharedStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "being-did": BeingDid
  }
}

/** A path that names no place of this app. */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { authStyles } from "../../styles/auth-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("not-found-place")
export class NotFoundPlace extends LitElement {
  protected override render() {
    return html`
      <h1>Not found</h1>
      <p>There is no place at ${window.location.pathname} on this node.</p>
      <p><a href="/">Go home</a></p>
    `
  }

  static override styles = [sharedStyles, authStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "not-found-place": NotFoundPlace
  }
}

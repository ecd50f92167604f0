/**
 * Home, the place the desktop will grow into. For now it says, truthfully, who is signed in
 * and what this account is on this node.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Being } from "../../../host/auth/schemas.ts"
import { formatDateTime } from "../../components/format.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("home-place")
export class HomePlace extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  protected override render() {
    const being = this.being
    if (being === null) return nothing
    return html`
      <h1>Welcome, ${being.displayName}</h1>
      <section class="card" aria-label="Your account">
        <p class="signed-in-as">Signed in as <strong>${being.displayName}</strong> (@${being.handle})</p>
        <p class="muted">
          ${being.isOwner ? "You are the owner of this node." : "You have an account on this node."}
          Member since ${formatDateTime(being.createdAt)}.
        </p>
        <p class="muted">
          ${being.email}:
          ${being.emailVerified ? "confirmed." : html`not confirmed yet; see <a href="/settings">Settings</a>.`}
        </p>
      </section>
    `
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "home-place": HomePlace
  }
}

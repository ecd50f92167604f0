/**
 * Moderation, at `/moderation`, the node's owner's: the square's recent posts to hide (they leave
 * every feed, and open pages drop them) or show again, and the market's listings to take down (out
 * of search and not for sale, whatever their seller sets) or restore. Anyone else sees that the
 * place is the owner's; the node refuses them too.
 */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./moderation-listings.ts"
import "./moderation-posts.ts"

@customElement("moderation-place")
export class ModerationPlace extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  protected override render() {
    if (this.being?.isOwner !== true) {
      return html`<h1 tabindex="-1">Moderation</h1>
        <p class="owner-only">Owner only: moderation is for the owner of this node.</p>`
    }
    return html`
      <h1 tabindex="-1">Moderation</h1>
      <p class="muted">Hide a post from the square, or take a listing off the market. Either can be undone.</p>
      <div class="split even">
        <moderation-posts></moderation-posts>
        <moderation-listings></moderation-listings>
      </div>
    `
  }

  static override styles = [sharedStyles, containerStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "moderation-place": ModerationPlace
  }
}

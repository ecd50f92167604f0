/**
 * The market's listings, newest first a page at a time, taken-down ones too, each with the button
 * that takes it down or restores it.
 */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { Listing } from "../../../extensions/market/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import { recordListStyles } from "../../styles/record-list-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { credits, kindLabels, listingStateWords, listingTone } from "../market/market-labels.ts"

@customElement("moderation-listings")
export class ModerationListings extends LitElement {
  private readonly _listings = new PagedResource<Listing>(this, (client, page) =>
    client.moderation.listListings({ urlParams: page })
  )

  private readonly _acting = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="listings-title">
      <h2 id="listings-title">Listings</h2>
      <node-alert .message=${this._listings.error || this._acting.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${this._listings.render("Loading listings…", (listings) => this._renderListings(listings))}
      ${this._listings.renderMore("listings")}
    </section>`
  }

  private _renderListings(listings: ReadonlyArray<Listing>) {
    if (listings.length === 0) return html`<p class="muted">Nothing is listed on the market yet.</p>`
    return html`<ul class="records" aria-label="Listings">
      ${listings.map(
        (listing) => html`<li data-id=${listing.id}>
          <p><a href=${`/market/${encodeURIComponent(listing.id)}`}>${listing.title}</a></p>
          <p class="meta muted">
            <span class="badge">${kindLabels[listing.kind]}</span>
            <span class="badge" data-tone=${listingTone(listing)}>${listingStateWords(listing)}</span>
            <span>${credits(listing.priceCredits)}</span>
            <button type="button" class="secondary" ?disabled=${this._acting.busy}
              aria-label=${`${listing.moderatedAt === null ? "Pause" : "Restore"} ${listing.title}`}
              @click=${() => this._toggle(listing)}>${listing.moderatedAt === null ? "Pause" : "Restore"}</button>
          </p>
        </li>`
      )}
    </ul>`
  }

  private async _toggle(listing: Listing): Promise<void> {
    const down = listing.moderatedAt === null
    const ok = await this._acting.run(
      (client) =>
        down
          ? client.moderation.pauseListing({ path: { id: listing.id } })
          : client.moderation.resumeListing({ path: { id: listing.id } }),
      () => (down ? `${listing.title} is off the market.` : `${listing.title} is restored.`)
    )
    if (ok) await this._listings.reload()
  }

  static override styles = [sharedStyles, recordListStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "moderation-listings": ModerationListings
  }
}

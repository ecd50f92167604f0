/**
 * My listings, `/market/mine`: publishing one, and each of mine whatever its state, to edit, pause
 * or put back on sale. A listing the node's owner took down says so; its seller cannot lift that.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Listing, ListingStatus } from "../../../extensions/market/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { credits, kindLabels, listingStateWords, listingTone } from "./market-labels.ts"
import "./market-listing-form.ts"
import { marketStyles } from "./market-styles.ts"

@customElement("market-mine")
export class MarketMine extends LitElement {
  @property() accessor selfId = ""

  /** The listing whose edit form is open, or "". */
  @state() private accessor _editing = ""

  @state() private accessor _published = ""

  private readonly _mine = new ApiResource(this, (client) =>
    client.market.searchListings({ urlParams: { mine: true, limit: 200, offset: 0 } })
  )

  private readonly _changing = new ApiAction(this)

  protected override render() {
    return html`
      <section class="card" aria-labelledby="publish-title">
        <h2 id="publish-title">Publish a listing</h2>
        <node-alert kind="success" .message=${this._published}></node-alert>
        <market-listing-form .selfId=${this.selfId} @listing-saved=${this._onPublished}></market-listing-form>
      </section>
      <section class="card" aria-labelledby="mine-title">
        <h2 id="mine-title">My listings</h2>
        <node-alert .message=${this._mine.error || this._changing.error}></node-alert>
        <node-alert kind="success" .message=${this._changing.notice}></node-alert>
        ${this._mine.render("Loading your listings…", (listings) => this._renderMine(listings))}
      </section>
    `
  }

  private _renderMine(listings: ReadonlyArray<Listing>) {
    if (listings.length === 0) return html`<p class="muted">You have not listed anything yet.</p>`
    return html`<ul class="records" aria-label="My listings">
      ${listings.map(
        (listing) => html`<li data-id=${listing.id}>
          <p class="title"><a href=${`/market/${encodeURIComponent(listing.id)}`}>${listing.title}</a></p>
          <p class="meta">
            <span class="badge">${kindLabels[listing.kind]}</span>
            <span class="badge" data-tone=${listingTone(listing)}>${listingStateWords(listing)}</span>
            <span class="price">${credits(listing.priceCredits)}</span>
            <span>${listing.sales} sold</span>
          </p>
          ${listing.moderatedAt === null ? nothing : html`<p class="muted">Only the node's owner can put it back on sale.</p>`}
          <div class="actions">
            <button type="button" class="secondary" aria-expanded=${this._editing === listing.id ? "true" : "false"}
              @click=${() => (this._editing = this._editing === listing.id ? "" : listing.id)}>Edit</button>
            ${
              listing.status === "active"
                ? html`<button type="button" class="secondary" ?disabled=${this._changing.busy} @click=${() => this._setStatus(listing, "paused")}>Pause</button>`
                : html`<button type="button" class="secondary" ?disabled=${this._changing.busy} @click=${() => this._setStatus(listing, "active")}>Resume</button>`
            }
          </div>
          ${
            this._editing === listing.id
              ? html`<market-listing-form .listing=${listing} .selfId=${this.selfId} @listing-saved=${this._onEdited}></market-listing-form>`
              : nothing
          }
        </li>`
      )}
    </ul>`
  }

  private async _setStatus(listing: Listing, status: ListingStatus): Promise<void> {
    const {
      id,
      sellerId: _seller,
      rating: _rating,
      ratingCount: _count,
      sales: _sales,
      createdAt: _at,
      moderatedAt: _moderated,
      ...fields
    } = listing
    const ok = await this._changing.run(
      (client) => client.market.updateListing({ path: { id }, payload: { ...fields, status } }),
      () => (status === "paused" ? `${listing.title} is paused.` : `${listing.title} is for sale again.`)
    )
    if (ok) await this._mine.reload()
  }

  private readonly _onPublished = (event: CustomEvent<{ readonly listing: Listing }>): void => {
    this._published = `${event.detail.listing.title} is published.`
    void this._mine.reload()
  }

  private readonly _onEdited = (): void => {
    this._editing = ""
    void this._mine.reload()
  }

  static override styles = [
    sharedStyles,
    marketStyles,
    css`
      .title {
        font-weight: var(--node-font-weight-semibold);
        margin: 0 0 var(--node-space-1);
      }
      .actions {
        margin-top: var(--node-space-2);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-mine": MarketMine
  }
}

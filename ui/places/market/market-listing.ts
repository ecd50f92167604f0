/**
 * A listing's page, `/market/:id`: what it is, its price and state, who sells it; buying it after
 * a confirmation that says what moves from the wallet (then a celebration, and the wallet shown
 * updated by the node's `wallet.updated`); its reviews, and for a buyer of it (the node's owner
 * too, as the spec exempts them) the form to write or rewrite theirs.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import type { Listing, Order, Review } from "../../../extensions/market/contract/records.ts"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./market-balance.ts"
import "./market-celebration.ts"
import { credits, kindLabels, listingStateWords, listingTone, ratingWords } from "./market-labels.ts"
import { BeingNames } from "./market-names.ts"
import { marketStyles } from "./market-styles.ts"

const stars = (rating: number): string => "★".repeat(rating) + "☆".repeat(5 - rating)

@customElement("market-listing")
export class MarketListing extends LitElement {
  @property() accessor listingId = ""

  @property({ attribute: false }) accessor being: Being | null = null

  @state() private accessor _bought: Order | null = null

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  private readonly _listing = new ApiResource(this, (client) =>
    client.market.getListing({ path: { id: this.listingId } })
  )

  private readonly _reviews = new ApiResource(this, (client) =>
    client.market.listReviews({ path: { id: this.listingId } })
  )

  /** The caller's purchases: whether they may review this listing, and whether they hold it already. */
  private readonly _orders = new ApiResource(this, (client) =>
    client.market.orders({ urlParams: { as: "buyer", limit: 200, offset: 0 } })
  )

  private readonly _names = new BeingNames(this)

  private readonly _buying = new ApiAction(this)

  private readonly _reviewing = new ApiAction(this)

  /** Whether the shell has been told the heading is drawn (it comes with the listing). */
  private _headingDrawn = false

  protected override updated(): void {
    if (this._headingDrawn || this._listing.value === null) return
    this._headingDrawn = true
    fireEvent(this, "place-heading", {})
  }

  protected override render() {
    return html`
      <div class="top"><p class="back"><a href="/market">← Market</a></p><market-balance></market-balance></div>
      <node-alert .message=${this._listing.error}></node-alert>
      ${this._listing.render("Loading the listing…", (listing) => this._renderListing(listing))}
      <confirm-dialog></confirm-dialog>
    `
  }

  private _renderListing(listing: Listing) {
    const selfId = this.being?.id ?? ""
    const mine = listing.sellerId === selfId
    const held = this._holds(listing)
    return html`
      <h1 tabindex="-1">${listing.title}</h1>
      <market-celebration .order=${this._bought}></market-celebration>
      <section class="card" aria-labelledby="about-title">
        <h2 id="about-title" class="sr-only">About this listing</h2>
        <p class="meta">
          <span class="badge">${kindLabels[listing.kind]}</span>
          <span class="badge" data-tone=${listingTone(listing)}>${listingStateWords(listing)}</span>
          <span>Sold by ${this._names.name(listing.sellerId, selfId)}</span>
          <span>${listing.sales} sold</span>
          <span>${ratingWords(listing)}</span>
        </p>
        ${listing.description === "" ? nothing : html`<p class="description">${listing.description}</p>`}
        ${listing.tags.length === 0 ? nothing : html`<p class="meta">${listing.tags.map((tag) => html`<span class="badge">#${tag}</span>`)}</p>`}
        ${listing.brief === null ? nothing : html`<p><strong>What a purchase runs:</strong> ${listing.brief}</p>`}
        <p class="price-line"><span class="price">${credits(listing.priceCredits)}</span></p>
        <node-alert .message=${this._buying.error}></node-alert>
        ${this._renderBuy(listing, mine, held)}
      </section>
      <section class="card" aria-labelledby="reviews-title">
        <h2 id="reviews-title">Reviews</h2>
        <node-alert .message=${this._reviews.error}></node-alert>
        ${this._reviews.render("Loading reviews…", (reviews) => this._renderReviews(reviews, selfId))}
        ${this._renderReviewForm(listing, mine)}
      </section>
    `
  }

  private _holds(listing: Listing): boolean {
    return listing.kind !== "service" && (this._orders.value ?? []).some((order) => order.listingId === listing.id)
  }

  private _renderBuy(listing: Listing, mine: boolean, held: boolean) {
    if (mine) return html`<p class="muted">This is your listing. <a href="/market/mine">Edit it in My listings.</a></p>`
    if (held) return html`<p class="muted">You own this already.</p>`
    if (listing.moderatedAt !== null || listing.status !== "active")
      return html`<p class="muted">This listing is not for sale now.</p>`
    return html`<div class="actions">
      <button type="button" ?disabled=${this._buying.busy} @click=${() => this._buy(listing)}>
        ${this._buying.busy ? "Buying…" : `Buy for ${credits(listing.priceCredits)}`}
      </button>
    </div>`
  }

  private _renderReviews(reviews: ReadonlyArray<Review>, selfId: string) {
    if (reviews.length === 0) return html`<p class="muted">No reviews yet.</p>`
    return html`<ul class="records" aria-label="Reviews">
      ${reviews.map(
        (review) => html`<li>
          <p class="meta">
            <span class="stars" aria-label=${`${review.rating} out of 5`}>${stars(review.rating)}</span>
            <span>by ${this._names.name(review.authorId, selfId)}</span>
            <span>${formatDateTime(review.updatedAt)}</span>
          </p>
          ${review.body === "" ? nothing : html`<p>${review.body}</p>`}
        </li>`
      )}
    </ul>`
  }

  /** Buyers review (the owner too); a seller never reviews their own listing. */
  private _renderReviewForm(listing: Listing, mine: boolean) {
    const bought = (this._orders.value ?? []).some((order) => order.listingId === listing.id)
    if (mine || !(bought || this.being?.isOwner === true)) return nothing
    const own = (this._reviews.value ?? []).find((review) => review.authorId === this.being?.id)
    const busy = this._reviewing.busy
    return html`<form class="review-form" @submit=${this._review}>
      <h3>${own === undefined ? "Your review" : "Change your review"}</h3>
      <label
        >Rating
        <select name="rating" required>
          ${[5, 4, 3, 2, 1].map((rating) => html`<option value=${rating} ?selected=${(own?.rating ?? 5) === rating}>${stars(rating)} (${rating})</option>`)}
        </select>
      </label>
      <label
        >What you think
        <textarea name="body" maxlength="4000" rows="3" .value=${own?.body ?? ""}></textarea>
      </label>
      <node-alert .message=${this._reviewing.error}></node-alert>
      <node-alert kind="success" .message=${this._reviewing.notice}></node-alert>
      <div class="actions"><button type="submit" ?disabled=${busy}>${busy ? "Saving…" : "Save the review"}</button></div>
    </form>`
  }

  private async _buy(listing: Listing): Promise<void> {
    const confirmed = await this._confirm.ask({
      title: `Buy ${listing.title}?`,
      message: `${credits(listing.priceCredits)} move from your wallet to the seller. ${listing.kind === "service" ? "Its project starts at once." : "You get your own copy."}`,
      confirm: `Buy for ${credits(listing.priceCredits)}`
    })
    if (!confirmed) return
    const ok = await this._buying.run(
      (client) => client.market.buyListing({ path: { id: listing.id } }),
      (order) => {
        this._bought = order
      }
    )
    if (ok) await Promise.all([this._listing.reload(), this._orders.reload()])
  }

  private readonly _review = onSubmit(async ({ field }) => {
    const ok = await this._reviewing.run(
      (client) =>
        client.market.postReview({
          path: { id: this.listingId },
          payload: { rating: Number(field("rating")), body: field("body") }
        }),
      () => "Your review is saved."
    )
    if (ok) await Promise.all([this._reviews.reload(), this._listing.reload()])
  })

  static override styles = [
    sharedStyles,
    marketStyles,
    css`
      .top {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        align-items: center;
        gap: var(--node-space-2);
      }
      .description {
        white-space: pre-line;
        overflow-wrap: anywhere;
      }
      .price-line {
        font-size: var(--node-font-size-xl);
        margin: var(--node-space-3) 0;
      }
      .stars {
        color: var(--node-warning);
        letter-spacing: 0.05em;
      }
      .review-form {
        margin-top: var(--node-space-4);
        max-width: var(--node-form-max);
      }
      .review-form h3 {
        margin: 0;
      }
      h1 {
        overflow-wrap: anywhere;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-listing": MarketListing
  }
}

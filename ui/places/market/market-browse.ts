/**
 * Browsing the market: the spec's search (up to six words, each required, matched in a listing's
 * title, description and tags; the node refuses more and says so) with a kind filter, over
 * listings for sale, best sellers first. Each card links to the listing's page.
 */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import { type Listing, type ListingKind, MAX_SEARCH_TERMS } from "../../../extensions/market/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { containerStyles, inlineFormStyles, sharedStyles } from "../../styles/shared-styles.ts"
import { credits, kindLabels, listingKinds, ratingWords } from "./market-labels.ts"
import { marketStyles } from "./market-styles.ts"

const isKind = (value: string): value is ListingKind => listingKinds.some((kind) => kind === value)

@customElement("market-browse")
export class MarketBrowse extends LitElement {
  @state() private accessor _q = ""

  @state() private accessor _kind: ListingKind | "" = ""

  private readonly _listings = new ApiResource(this, (client) =>
    client.market.searchListings({
      urlParams: {
        mine: false,
        limit: 60,
        offset: 0,
        ...(this._q === "" ? {} : { q: this._q }),
        ...(this._kind === "" ? {} : { kind: this._kind })
      }
    })
  )

  protected override render() {
    return html`
      <section class="card" aria-labelledby="browse-title">
        <h2 id="browse-title">Browse</h2>
        <form class="inline" role="search" @submit=${this._search}>
          <label
            >Search
            <input name="q" type="search" .value=${this._q} placeholder="Words in a title, description or tag" />
          </label>
          <label
            >Kind
            <select name="kind" @change=${this._search}>
              <option value="" ?selected=${this._kind === ""}>All kinds</option>
              ${listingKinds.map((kind) => html`<option value=${kind} ?selected=${this._kind === kind}>${kindLabels[kind]}</option>`)}
            </select>
          </label>
          <div class="actions"><button type="submit">Search</button></div>
        </form>
        <p class="muted">Up to ${MAX_SEARCH_TERMS} words; a listing matches when it has every one.</p>
        <node-alert .message=${this._listings.error}></node-alert>
        ${this._listings.render("Loading listings…", (listings) => this._renderListings(listings))}
      </section>
    `
  }

  private _renderListings(listings: ReadonlyArray<Listing>) {
    if (listings.length === 0) {
      return html`<p class="muted">${this._q === "" && this._kind === "" ? "Nothing is for sale yet." : "No listing matches that search."}</p>`
    }
    return html`<ul class="listings" aria-label="Listings">
      ${listings.map(
        (listing) => html`<li class="listing" data-id=${listing.id}>
          <span class="badge">${kindLabels[listing.kind]}</span>
          <h3><a href=${`/market/${encodeURIComponent(listing.id)}`}>${listing.title}</a></h3>
          <p class="muted">${listing.description}</p>
          <p class="meta"><span class="price">${credits(listing.priceCredits)}</span><span>${ratingWords(listing)}</span><span>${listing.sales} sold</span></p>
        </li>`
      )}
    </ul>`
  }

  /** The form's words and kind, on submit or when the kind changes. */
  private readonly _search = (event: Event): void => {
    event.preventDefault()
    const form = (event.target as HTMLElement).closest("form")
    if (form === null) return
    const data = new FormData(form)
    this._q = String(data.get("q") ?? "").trim()
    const kind = String(data.get("kind") ?? "")
    this._kind = isKind(kind) ? kind : ""
    void this._listings.reload()
  }

  static override styles = [sharedStyles, containerStyles, inlineFormStyles, marketStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-browse": MarketBrowse
  }
}

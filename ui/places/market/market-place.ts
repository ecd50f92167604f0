/**
 * The market, at `/market`: browsing and search; `/market/mine` my listings; `/market/orders` what
 * I bought and sold; `/market/wallet` the wallet and its ledger; `/market/<id>` one listing's page.
 * The sections are links (the address says where one is); the balance in the heading's row stays
 * current by the live channel.
 */
import { css, html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import { keyed } from "lit/directives/keyed.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import { sectionTabsStyles } from "../../styles/section-tabs-styles.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./market-balance.ts"
import "./market-browse.ts"
import "./market-listing.ts"
import "./market-mine.ts"
import "./market-orders.ts"
import "./market-wallet.ts"

const sections = [
  ["", "Browse"],
  ["mine", "My listings"],
  ["orders", "My orders"],
  ["wallet", "Wallet"]
] as const

type Section = (typeof sections)[number][0]

const isSection = (name: string): name is Section => sections.some(([id]) => id === name)

@customElement("market-place")
export class MarketPlace extends LitElement {
  /** What follows `/market/`: a section's name, a listing's id, or "" for browsing. */
  @property() accessor route = ""

  @property({ attribute: false }) accessor being: Being | null = null

  protected override render() {
    const selfId = this.being?.id ?? ""
    if (!isSection(this.route)) {
      return keyed(this.route, html`<market-listing .listingId=${this.route} .being=${this.being}></market-listing>`)
    }
    return html`
      <div class="heading">
        <h1 tabindex="-1">Market</h1>
        <market-balance></market-balance>
      </div>
      <p class="muted">Generators, agents, skills, services and themes other beings sell for credits.</p>
      <nav class="sections" aria-label="Market sections">
        <ul>
          ${sections.map(
            ([id, label]) => html`<li>
              <a href=${id === "" ? "/market" : `/market/${id}`} aria-current=${id === this.route ? "page" : "false"}>${label}</a>
            </li>`
          )}
        </ul>
      </nav>
      ${this._renderSection(this.route, selfId)}
    `
  }

  private _renderSection(section: Section, selfId: string) {
    switch (section) {
      case "":
        return html`<market-browse></market-browse>`
      case "mine":
        return html`<market-mine .selfId=${selfId}></market-mine>`
      case "orders":
        return html`<market-orders .selfId=${selfId}></market-orders>`
      case "wallet":
        return html`<market-wallet .selfId=${selfId}></market-wallet>`
    }
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    sectionTabsStyles,
    css`
      .heading {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        justify-content: space-between;
        gap: var(--node-space-2) var(--node-space-4);
      }
      /* On a phone: two even rows of two. */
      .sections {
        --node-section-columns: 2;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-place": MarketPlace
  }
}

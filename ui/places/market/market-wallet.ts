/**
 * The wallet, `/market/wallet`: the balance and lifetime totals, and the ledger's entries (each
 * movement's side on this wallet: a starting credit from the node, a purchase, a sale). A buy or
 * a sale anywhere brings `wallet.updated`: the totals take it and the ledger loads again.
 */
import { css, html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { LedgerEntry, Wallet } from "../../../extensions/market/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { LiveEvents } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { credits, reasonLabels } from "./market-labels.ts"
import { BeingNames } from "./market-names.ts"
import { marketStyles } from "./market-styles.ts"

const signed = (amount: number): string => (amount > 0 ? `+${credits(amount)}` : `−${credits(-amount)}`)

@customElement("market-wallet")
export class MarketWallet extends LitElement {
  @property() accessor selfId = ""

  private readonly _wallet = new ApiResource(this, (client) => client.market.wallet())

  private readonly _ledger = new ApiResource(this, (client) =>
    client.market.ledger({ urlParams: { limit: 100, offset: 0 } })
  )

  private readonly _names = new BeingNames(this)

  private readonly _live = new LiveEvents(this, {
    "wallet.updated": (event) => {
      this._wallet.replace(event.wallet)
      void this._ledger.reload()
    }
  })

  protected override render() {
    return html`
      <section class="card" aria-labelledby="wallet-title">
        <h2 id="wallet-title">Wallet</h2>
        <node-alert .message=${this._wallet.error}></node-alert>
        ${this._wallet.render("Loading your wallet…", (wallet) => this._renderWallet(wallet))}
      </section>
      <section class="card" aria-labelledby="ledger-title">
        <h2 id="ledger-title">Ledger</h2>
        <node-alert .message=${this._ledger.error}></node-alert>
        ${this._ledger.render("Loading the ledger…", (entries) => this._renderLedger(entries))}
      </section>
    `
  }

  private _renderWallet(wallet: Wallet) {
    return html`<p class="balance" data-balance=${wallet.balance}><strong>${credits(wallet.balance)}</strong></p>
      <p class="meta"><span>Earned ${credits(wallet.earned)}</span><span>Spent ${credits(wallet.spent)}</span></p>`
  }

  private _renderLedger(entries: ReadonlyArray<LedgerEntry>) {
    if (entries.length === 0) return html`<p class="muted">Nothing has moved yet.</p>`
    return html`<ul class="records" aria-label="Ledger entries">
      ${entries.map(
        (entry) => html`<li>
          <p class="meta">
            <span class="price">${signed(entry.amount)}</span>
            <span>${reasonLabels[entry.reason]}</span>
            <span>${entry.counterparty === "mint" ? "from the node" : `${entry.amount > 0 ? "from" : "to"} ${this._names.name(entry.counterparty, this.selfId)}`}</span>
            <span>${formatDateTime(entry.createdAt)}</span>
          </p>
        </li>`
      )}
    </ul>`
  }

  static override styles = [
    sharedStyles,
    marketStyles,
    css`
      .balance {
        font-size: var(--node-font-size-2xl);
        margin: 0 0 var(--node-space-1);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-wallet": MarketWallet
  }
}

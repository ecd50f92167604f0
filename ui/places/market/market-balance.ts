/**
 * The caller's balance, kept current: loaded once, then replaced by every `wallet.updated` the
 * live channel brings (a buy or a sale, in this tab or another), without asking again.
 */
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { mdiWalletOutline } from "@mdi/js"
import { ApiResource } from "../../components/api-resource.ts"
import { icon } from "../../components/icon.ts"
import { LiveEvents } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { credits } from "./market-labels.ts"

@customElement("market-balance")
export class MarketBalance extends LitElement {
  private readonly _wallet = new ApiResource(this, (client) => client.market.wallet())

  private readonly _live = new LiveEvents(this, { "wallet.updated": (event) => this._wallet.replace(event.wallet) })

  protected override render() {
    return html`<a class="balance" href="/market/wallet">
      ${icon(mdiWalletOutline)}<span class="sr-only">Your wallet: </span><span class="amount">${this._wallet.value === null ? "…" : credits(this._wallet.value.balance)}</span>
    </a>`
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: inline-block;
      }
      .balance {
        display: inline-flex;
        align-items: center;
        gap: var(--node-space-2);
        padding: var(--node-space-1) var(--node-space-3);
        border-radius: var(--node-radius-pill);
        background: var(--node-accent-soft);
        color: var(--node-accent-soft-text);
        font-weight: var(--node-font-weight-semibold);
        text-decoration: none;
        white-space: nowrap;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-balance": MarketBalance
  }
}

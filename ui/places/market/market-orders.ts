/** My orders, `/market/orders`: what I bought and what I sold, newest first, each linking to its listing. */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Order } from "../../../extensions/market/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { credits, kindLabels } from "./market-labels.ts"
import { BeingNames } from "./market-names.ts"
import { marketStyles } from "./market-styles.ts"

@customElement("market-orders")
export class MarketOrders extends LitElement {
  @property() accessor selfId = ""

  private readonly _bought = new ApiResource(this, (client) =>
    client.market.orders({ urlParams: { as: "buyer", limit: 100, offset: 0 } })
  )

  private readonly _sold = new ApiResource(this, (client) =>
    client.market.orders({ urlParams: { as: "seller", limit: 100, offset: 0 } })
  )

  private readonly _names = new BeingNames(this)

  protected override render() {
    return html`
      <section class="card" aria-labelledby="bought-title">
        <h2 id="bought-title">Bought</h2>
        <node-alert .message=${this._bought.error}></node-alert>
        ${this._bought.render("Loading your orders…", (orders) => this._renderOrders(orders, "buyer"))}
      </section>
      <section class="card" aria-labelledby="sold-title">
        <h2 id="sold-title">Sold</h2>
        <node-alert .message=${this._sold.error}></node-alert>
        ${this._sold.render("Loading your sales…", (orders) => this._renderOrders(orders, "seller"))}
      </section>
    `
  }

  private _renderOrders(orders: ReadonlyArray<Order>, as: "buyer" | "seller") {
    if (orders.length === 0)
      return html`<p class="muted">${as === "buyer" ? "You have not bought anything yet." : "Nothing sold yet."}</p>`
    return html`<ul class="records" aria-label=${as === "buyer" ? "Bought" : "Sold"}>
      ${orders.map(
        (order) => html`<li>
          <p><a href=${`/market/${encodeURIComponent(order.listingId)}`}>${order.title}</a></p>
          <p class="meta">
            <span class="badge">${kindLabels[order.kind]}</span>
            <span class="price">${credits(order.priceCredits)}</span>
            <span>${as === "buyer" ? `from ${this._names.name(order.sellerId, this.selfId)}` : `to ${this._names.name(order.buyerId, this.selfId)}`}</span>
            <span>${formatDateTime(order.createdAt)}</span>
          </p>
        </li>`
      )}
    </ul>`
  }

  static override styles = [sharedStyles, marketStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-orders": MarketOrders
  }
}

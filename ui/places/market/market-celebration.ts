/**
 * The moment after a buy: a card that says what was bought and where it went, with a burst of
 * colour behind it (CSS only, and still for people who ask for less motion). It is a live region,
 * so a screen reader says it too; it stays until the person closes it or leaves the page.
 */
import { css, html, LitElement, nothing, unsafeCSS } from "lit"
import { customElement, property } from "lit/decorators.js"
import { mdiPartyPopper } from "@mdi/js"
import type { Order } from "../../../extensions/market/contract/records.ts"
import { icon } from "../../components/icon.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { credits, kindLabels } from "./market-labels.ts"

/** Where a bought thing lands, by kind. */
const whereWords = (order: Order): string => {
  switch (order.kind) {
    case "generator":
      return "It is in your Studio's generators."
    case "agent":
    case "skill":
      return "Your new agent is in the Studio."
    case "theme":
      return "Choose it in Settings to wear it."
    case "service":
      return "Its project has started in the Studio."
    case "module":
      return "The owner can install it from the plugins."
  }
}

const sparks = Array.from({ length: 14 }, (_, index) => index)

/** Each spark's start and path, spread across the card: numbers of ours, never the person's text. */
const sparkRules = unsafeCSS(
  sparks
    .map((index) => {
      const left = 5 + ((index * 37) % 90)
      const dx = ((index * 53) % 120) - 60
      const dy = -40 - ((index * 29) % 60)
      return `.s${index} { left: ${left}%; --dx: ${dx}px; --dy: ${dy}px; animation-delay: ${(index % 5) * 60}ms; }`
    })
    .join("\n")
)

@customElement("market-celebration")
export class MarketCelebration extends LitElement {
  @property({ attribute: false }) accessor order: Order | null = null

  protected override render() {
    const order = this.order
    return html`<div role="status" aria-live="polite">
      ${
        order === null
          ? nothing
          : html`<div class="celebration">
            <div class="sparks" aria-hidden="true">${sparks.map((index) => html`<span class="spark s${index}"></span>`)}</div>
            <p class="title">${icon(mdiPartyPopper)} <strong>You bought ${order.title}!</strong></p>
            <p>${kindLabels[order.kind]} for ${credits(order.priceCredits)}. ${whereWords(order)}</p>
            <div class="actions">
              <a class="button secondary" href="/market/orders">My orders</a>
              <button type="button" class="secondary" @click=${this._close}>Close</button>
            </div>
          </div>`
      }
    </div>`
  }

  private _close(): void {
    this.order = null
  }

  static override styles = [
    sharedStyles,
    css`
      .celebration {
        position: relative;
        overflow: hidden;
        border: 2px solid var(--node-success);
        border-radius: var(--node-radius-lg);
        background: var(--node-success-bg);
        padding: var(--node-space-4) var(--node-space-5);
        margin: 0 0 var(--node-space-4);
      }
      .title {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
        font-size: var(--node-font-size-lg);
        margin: 0 0 var(--node-space-2);
        color: var(--node-success);
      }
      .sparks {
        position: absolute;
        inset: 0;
        pointer-events: none;
      }
      .spark {
        position: absolute;
        top: 50%;
        width: 8px;
        height: 8px;
        border-radius: 2px;
        background: var(--node-accent);
        opacity: 0;
        animation: burst 900ms ease-out forwards;
      }
      .spark:nth-child(3n) {
        background: var(--node-success);
      }
      .spark:nth-child(3n + 1) {
        background: var(--node-warning);
      }
      ${sparkRules}
      @keyframes burst {
        0% {
          transform: translate(0, 0) rotate(0);
          opacity: 1;
        }
        100% {
          transform: translate(var(--dx), var(--dy)) rotate(220deg);
          opacity: 0;
        }
      }
      @media (prefers-reduced-motion: reduce) {
        .spark {
          display: none;
        }
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "market-celebration": MarketCelebration
  }
}

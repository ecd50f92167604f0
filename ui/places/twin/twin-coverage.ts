/**
 * How much of the memory the twin can search by meaning (embedded of total), the node's note
 * about it, and, when memory text may leave this host to be embedded (a remote embed tier, or a
 * local one with LOCAL_LLM_FALLBACK on), a badge and the node's note that says so, as a warning.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { EmbeddingsStatus } from "../../../extensions/twin/contract/records.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** Said when the node flags it but gave no note (its note says it in its own words). */
const leavesDeviceWords = "Memory text sent to be embedded may leave this host (a remote tier, or LOCAL_LLM_FALLBACK)."

@customElement("twin-coverage")
export class TwinCoverage extends LitElement {
  /** A first sentence, before the coverage (why the coverage matters here). */
  @property() accessor lead = ""

  @property({ attribute: false }) accessor embeddings: EmbeddingsStatus | null = null

  protected override render() {
    const embeddings = this.embeddings
    // Unbound, nothing is sent anywhere; the node's note still says where text would go.
    const leaves = embeddings?.available && embeddings.leavesDevice
    return html`<div class="coverage" role="note">
      ${this.lead === "" ? nothing : html`<p><strong>${this.lead}</strong></p>`}
      ${
        embeddings === null
          ? nothing
          : html`<p>
              ${embeddings.available ? "Search by meaning is on." : "Search by meaning is off: no embed tier is bound."}
              ${embeddings.embedded} of ${embeddings.total} ${embeddings.total === 1 ? "memory is" : "memories are"} embedded.
              ${leaves ? html`<span class="badge" data-tone="bad">Leaves this host</span>` : nothing}
            </p>
            ${embeddings.note === null && !leaves ? nothing : html`<p class=${leaves ? "leaves" : ""}>${embeddings.note ?? leavesDeviceWords}</p>`}`
      }
    </div>`
  }

  static override styles = [
    sharedStyles,
    css`
      .coverage {
        background: var(--node-surface-sunken);
        border-radius: var(--node-radius);
        padding: var(--node-space-3) var(--node-space-4);
        font-size: var(--node-font-size-sm);
      }
      .coverage p:last-child {
        margin: 0;
      }
      .leaves {
        color: var(--node-warning);
        font-weight: var(--node-font-weight-semibold);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-coverage": TwinCoverage
  }
}

/**
 * The banner every page shows while a tier is bound to the node's built-in demo models
 * (`/api/health` says `models.demo`): their writing is placeholder text, and a person reading a
 * result should know it before trusting it. The owner is pointed at Settings → Models.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import { ApiResource } from "../components/api-resource.ts"

@customElement("demo-banner")
export class DemoBanner extends LitElement {
  @property({ type: Boolean }) accessor owner = false

  private readonly _health = new ApiResource(this, (client) => client.health.health(), { reloadOn: ["models-changed"] })

  protected override render() {
    if (this._health.value?.models.demo !== true) return nothing
    return html`<p class="banner" role="note">
      Demo models write placeholder text.
      ${this.owner ? html`<a href="/settings?section=models">Connect a model in Settings → Models</a>` : "The owner can connect a real model."}
    </p>`
  }

  static override styles = css`
    .banner {
      margin: 0;
      padding: var(--node-space-2) var(--node-space-4);
      background: var(--node-accent-soft);
      border-bottom: 1px solid var(--node-border);
      color: var(--node-accent-soft-text);
    }
    a {
      color: inherit;
      font-weight: var(--node-font-weight-semibold);
      text-underline-offset: 2px;
    }
  `
}

declare global {
  interface HTMLElementTagNameMap {
    "demo-banner": DemoBanner
  }
}

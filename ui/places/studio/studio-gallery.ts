/**
 * The generator gallery: every generator the person may run (the public ones and their own),
 * each a card with its icon, name, description, what it makes and how often it has run. The
 * name is the card's link (to `/studio?generator=<slug>`); the whole card answers a click.
 */
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { GeneratorSummary } from "../../../extensions/generators/contract/generator.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { outputKindLabels } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const runsInWords = (runs: number): string => (runs === 0 ? "Not run yet" : runs === 1 ? "Run once" : `Run ${runs} times`)

@customElement("studio-gallery")
export class StudioGallery extends LitElement {
  private readonly _generators = new ApiResource(this, (client) => client.studioGenerators.listGenerators())

  protected override render() {
    return html`
      <section class="card" aria-labelledby="gallery-title">
        <h2 id="gallery-title">Generators</h2>
        <node-alert .message=${this._generators.error}></node-alert>
        ${this._generators.render("Loading generators…", (generators) => this._renderGallery(generators))}
      </section>
    `
  }

  private _renderGallery(generators: ReadonlyArray<GeneratorSummary>) {
    if (generators.length === 0) return html`<p class="muted">There are no generators on this node yet.</p>`
    return html`<ul class="gallery">
      ${generators.map(
        (generator) => html`<li class="generator" data-slug=${generator.slug}>
          <span class="icon" aria-hidden="true">${generator.icon}</span>
          <h3><a href=${`/studio?generator=${encodeURIComponent(generator.slug)}`}>${generator.name}</a></h3>
          <p class="description">${generator.description}</p>
          <p class="meta muted">
            <span>Makes: ${generator.outputKinds.map((kind) => outputKindLabels[kind]).join(", ")}</span>
            <span class="runs">${runsInWords(generator.runs)}</span>
          </p>
        </li>`
      )}
    </ul>`
  }

  static override styles = [
    sharedStyles,
    css`
      .gallery {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr));
        gap: 12px;
      }
      .generator {
        position: relative;
        display: grid;
        grid-template-columns: auto minmax(0, 1fr);
        grid-template-rows: auto 1fr auto;
        column-gap: 10px;
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
        padding: 12px;
        background: var(--node-bg);
      }
      .generator:hover {
        border-color: var(--node-accent);
      }
      .generator:focus-within {
        outline: 3px solid var(--node-focus);
        outline-offset: 2px;
      }
      .icon {
        grid-row: 1 / span 3;
        font-size: 1.8rem;
        line-height: 1;
      }
      h3 {
        font-size: 1.05rem;
        margin: 0 0 4px;
      }
      h3 a {
        color: var(--node-text);
        text-decoration: none;
      }
      /* The name's link covers the card, so the whole card is one target (and one tab stop). */
      h3 a::after {
        content: "";
        position: absolute;
        inset: 0;
      }
      h3 a:focus-visible {
        outline: none;
      }
      .description {
        margin: 0 0 8px;
      }
      .meta {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        gap: 4px 12px;
        margin: 0;
        font-size: 0.85rem;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "studio-gallery": StudioGallery
  }
}

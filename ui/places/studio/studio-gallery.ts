/**
 * The generator gallery: every generator the person may run (the public ones and their own),
 * each a card with its icon, name, description, what it makes and how often it has run. The
 * name is the card's link (to `/studio?generator=<slug>`); the whole card answers a click. A
 * plugin's generator says which plugin it comes from.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement } from "lit/decorators.js"
import type { GeneratorSummary } from "../../../extensions/generators/contract/generator.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { generatorIconPath } from "../../components/emoji-icons.ts"
import { icon } from "../../components/icon.ts"
import "../../components/node-alert.ts"
import { outputKindLabels } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const runsInWords = (runs: number): string =>
  runs === 0 ? "Not run yet" : runs === 1 ? "Run once" : `Run ${runs} times`

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
          <span class="picture">${icon(generatorIconPath(generator.icon))}</span>
          <h3><a href=${`/studio?generator=${encodeURIComponent(generator.slug)}`}>${generator.name}</a></h3>
          ${generator.plugin === undefined ? nothing : html`<p class="plugin muted">From the plugin ${generator.plugin.name}</p>`}
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
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr));
        gap: var(--node-space-3);
      }
      .generator {
        position: relative;
        display: grid;
        grid-template-columns: auto minmax(0, 1fr);
        grid-template-rows: auto 1fr auto;
        column-gap: var(--node-space-3);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
        padding: var(--node-space-4);
        background: var(--node-surface);
        transition: border-color var(--node-transition), box-shadow var(--node-transition);
      }
      .generator:hover {
        border-color: var(--node-accent);
        box-shadow: var(--node-shadow-2);
      }
      .generator:focus-within {
        outline: 3px solid var(--node-focus);
        outline-offset: 2px;
      }
      /* The generator's picture in a tinted tile, as Home Assistant draws an entity's icon. */
      .picture {
        grid-row: 1 / span 3;
        display: grid;
        place-items: center;
        width: 40px;
        height: 40px;
        border-radius: var(--node-radius);
        background: var(--node-accent-soft);
        color: var(--node-accent);
      }
      h3 {
        font-size: var(--node-font-size-md);
        margin: var(--node-space-1) 0 var(--node-space-1);
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
      .plugin {
        margin: 0 0 var(--node-space-1);
        font-size: var(--node-font-size-xs);
      }
      .description {
        margin: 0 0 var(--node-space-3);
        font-size: var(--node-font-size-sm);
        color: var(--node-muted);
      }
      .meta {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        gap: var(--node-space-1) var(--node-space-3);
        margin: 0;
        font-size: var(--node-font-size-xs);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "studio-gallery": StudioGallery
  }
}

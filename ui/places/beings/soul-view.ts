/**
 * A soul as anyone may read it: its mood now (drift moves it; it relaxes with time), its
 * personality as eight meters, its values, voice, way of caring, story and purpose; and the
 * compiled system prompt, which the node sends only to the being itself and the owner.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Soul } from "../../../extensions/souls/contract/records.ts"
import { formatDateTime } from "../../components/format.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { moodWords, traitNames } from "./soul-labels.ts"

@customElement("soul-view")
export class SoulView extends LitElement {
  @property({ attribute: false }) accessor soul: Soul | null = null

  protected override render() {
    const soul = this.soul
    if (soul === null) return nothing
    return html`<section class="card" aria-labelledby="soul-title">
      <h2 id="soul-title">Soul</h2>
      <p class="mood">Feeling <strong>${moodWords(soul.mood)}</strong></p>
      <dl class="traits">
        ${traitNames.map(
          ([trait, name]) => html`<div>
          <dt id="trait-${trait}">${name}</dt>
          <dd><meter min="0" max="1" .value=${soul.personality[trait]} aria-labelledby="trait-${trait}"></meter><span class="muted">${Math.round(soul.personality[trait] * 100)}%</span></dd>
        </div>`
        )}
      </dl>
      <dl class="fields">
        <div><dt>Values</dt><dd>${soul.values.length === 0 ? html`<span class="muted">None written.</span>` : html`<ul class="values">${soul.values.map((value) => html`<li class="badge">${value}</li>`)}</ul>`}</dd></div>
        ${this._field("Voice", soul.voice)}
        ${this._field("Empathy style", soul.empathyStyle)}
        ${this._field("Backstory", soul.backstory)}
        ${this._field("Purpose", soul.purpose)}
      </dl>
      ${
        soul.systemPrompt === undefined
          ? nothing
          : html`<details>
            <summary>System prompt</summary>
            <pre class="prompt">${soul.systemPrompt}</pre>
          </details>`
      }
      <p class="muted updated">Updated ${formatDateTime(soul.updatedAt)}</p>
    </section>`
  }

  private _field(name: string, value: string) {
    return html`<div><dt>${name}</dt><dd>${value === "" ? html`<span class="muted">Not written.</span>` : value}</dd></div>`
  }

  static override styles = [
    sharedStyles,
    css`
      dl {
        margin: 0 0 var(--node-space-4);
      }
      dt {
        font-size: var(--node-font-size-sm);
        font-weight: var(--node-font-weight-semibold);
      }
      dd {
        margin: 0 0 var(--node-space-3);
        overflow-wrap: anywhere;
      }
      .traits {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr));
        gap: var(--node-space-2) var(--node-space-4);
      }
      .traits dd {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
        margin: 0;
      }
      meter {
        flex: 1;
        min-width: 0;
        height: 10px;
      }
      .values {
        list-style: none;
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-1);
        margin: 0;
        padding: 0;
      }
      .values .badge {
        white-space: normal;
      }
      .prompt {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        font-family: var(--node-font-mono);
        font-size: var(--node-font-size-sm);
        background: var(--node-surface-sunken);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-sm);
        padding: var(--node-space-3);
        margin: var(--node-space-2) 0 0;
      }
      .updated {
        margin: var(--node-space-3) 0 0;
        font-size: var(--node-font-size-sm);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "soul-view": SoulView
  }
}

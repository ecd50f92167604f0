/**
 * "Add a widget": the built-in widget types and every installed plugin's widgets, each added at
 * the foot of the shortest column when chosen. It says which was chosen as a suggestion taken
 * (`widget-suggestion` with `accept`), so the desktop adds it the one way it adds any widget.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

export interface WidgetChoice {
  readonly type: string
  readonly title: string
  /** The plugin it comes from; null for the node's own. */
  readonly from: string | null
}

@customElement("widget-picker")
export class WidgetPicker extends LitElement {
  @property({ attribute: false }) accessor choices: ReadonlyArray<WidgetChoice> = []
  @property({ type: Boolean }) accessor busy = false

  @state() private accessor _open = false

  protected override render() {
    return html`
      <button class="secondary" type="button" aria-expanded=${this._open ? "true" : "false"} aria-controls="widget-choices"
        ?disabled=${this.busy} @click=${() => {
          this._open = !this._open
        }}>Add a widget</button>
      ${
        this._open
          ? html`<ul id="widget-choices" class="choices" aria-label="Widgets to add">
            ${this.choices.map(
              (choice) => html`<li data-widget-type=${choice.type}>
              <button type="button" @click=${() => this._add(choice)}>${choice.title}${choice.from === null ? nothing : html` <span class="muted">from ${choice.from}</span>`}</button>
            </li>`
            )}
          </ul>`
          : nothing
      }
    `
  }

  private _add(choice: WidgetChoice): void {
    this._open = false
    fireEvent(this, "widget-suggestion", { widgetType: choice.type, accept: true })
  }

  static override styles = [
    sharedStyles,
    css`
      :host { position: relative; display: inline-block; }
      .choices {
        position: absolute;
        right: 0;
        z-index: 2;
        list-style: none;
        margin: var(--node-space-1) 0 0;
        padding: var(--node-space-2);
        min-width: 14rem;
        background: var(--node-surface);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
        box-shadow: var(--node-shadow-2);
      }
      .choices button { width: 100%; text-align: left; background: none; color: var(--node-text); border: none; padding: var(--node-space-2); }
      .choices button:hover, .choices button:focus-visible { background: var(--node-accent-soft); }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "widget-picker": WidgetPicker
  }
}

/**
 * Widgets the twin suggests for the desktop (`widget.suggest`, from its reflection): each with
 * the twin's reason, to add to the layout or dismiss. The desktop holds the list and stores the
 * layout; this draws it and says which was chosen (`widget-suggestion`).
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import { mdiLightbulbOnOutline } from "@mdi/js"
import { icon } from "../../components/icon.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

export interface WidgetSuggestion {
  readonly widgetType: string
  readonly reason: string
}

@customElement("desktop-suggestions")
export class DesktopSuggestions extends LitElement {
  @property({ attribute: false }) accessor suggestions: ReadonlyArray<WidgetSuggestion> = []

  /** The words a widget type is known by on the desktop. */
  @property({ attribute: false }) accessor titleOf: (widgetType: string) => string = (widgetType) => widgetType

  @property({ type: Boolean }) accessor busy = false

  protected override render() {
    if (this.suggestions.length === 0) return nothing
    return html`<section class="card" aria-labelledby="suggestions-title">
      <h2 id="suggestions-title">${icon(mdiLightbulbOnOutline)} Suggested for your desktop</h2>
      <ul>
        ${this.suggestions.map((suggestion) => {
          const title = this.titleOf(suggestion.widgetType)
          return html`<li class="suggestion" data-widget-type=${suggestion.widgetType}>
            <p><strong>${title}</strong> <code>${suggestion.widgetType}</code></p>
            <p class="muted">${suggestion.reason}</p>
            <div class="actions">
              <button type="button" ?disabled=${this.busy} aria-label=${`Add the ${title} widget`} @click=${() => this._choose(suggestion, true)}>
                Add to the desktop
              </button>
              <button class="secondary" type="button" aria-label=${`Dismiss the ${title} suggestion`} @click=${() => this._choose(suggestion, false)}>
                Dismiss
              </button>
            </div>
          </li>`
        })}
      </ul>
    </section>`
  }

  private _choose(suggestion: WidgetSuggestion, accept: boolean): void {
    fireEvent(this, "widget-suggestion", { widgetType: suggestion.widgetType, accept })
  }

  static override styles = [
    sharedStyles,
    css`
      section {
        margin: 0 0 var(--node-gap);
        border-color: var(--node-accent);
      }
      h2 {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      li + li {
        border-top: 1px solid var(--node-border);
        padding-top: var(--node-space-3);
        margin-top: var(--node-space-3);
      }
      p {
        margin: 0 0 var(--node-space-2);
        overflow-wrap: anywhere;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "desktop-suggestions": DesktopSuggestions
  }
}

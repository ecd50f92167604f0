/**
 * Themes: the node's built-in ones and those the person bought, one of them worn (or none: the
 * app follows the device's light or dark setting). Choosing one wears it at once and the node keeps
 * the choice, so the next visit and every other tab of this person wear it too.
 */
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { ThemeChoice, ThemeView } from "../../../extensions/themes/contract/api.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { wearTheme, wornIn } from "../../theme/worn-theme.ts"

@customElement("settings-themes")
export class SettingsThemes extends LitElement {
  private readonly _choice = new ApiResource(this, (client) => client.themes.listThemes())

  private readonly _choosing = new ApiAction(this)

  protected override render() {
    return html`
      <section class="card" aria-labelledby="themes-title">
        <h2 id="themes-title">Theme</h2>
        <p class="muted">Built-in themes and the ones you bought in the market.</p>
        <node-alert .message=${this._choice.error || this._choosing.error}></node-alert>
        <node-alert kind="success" .message=${this._choosing.notice}></node-alert>
        ${this._choice.render("Loading themes…", (choice) => this._renderChoice(choice))}
      </section>
    `
  }

  private _renderChoice(choice: ThemeChoice) {
    return html`<fieldset ?disabled=${this._choosing.busy}>
      <legend class="sr-only">Theme</legend>
      <label class="option">
        <input type="radio" name="theme" value="" .checked=${choice.activeId === null} @change=${() => this._choose(null, "Following this device's setting.")} />
        <span>Follow this device (light or dark)</span>
      </label>
      ${choice.themes.map(
        (theme) => html`<label class="option">
          <input type="radio" name="theme" value=${theme.id} .checked=${choice.activeId === theme.id}
            @change=${() => this._choose(theme.id, `${theme.name} is on.`)} />
          ${this._swatch(theme)}
          <span>${theme.name}</span>
          <span class="badge">${theme.source === "builtin" ? "Built in" : "Bought"}</span>
        </label>`
      )}
    </fieldset>`
  }

  private _swatch(theme: ThemeView) {
    // The swatch's colours are drawn as SVG fills: attributes, which the style policy allows.
    return html`<svg class="swatch" viewBox="0 0 30 20" aria-hidden="true">
      <rect width="30" height="20" rx="4" fill=${theme.tokens.background}></rect>
      <rect x="4" y="4" width="14" height="12" rx="2" fill=${theme.tokens.surface}></rect>
      <circle cx="23" cy="10" r="4" fill=${theme.tokens.accent}></circle>
    </svg>`
  }

  private async _choose(themeId: string | null, words: string): Promise<void> {
    await this._choosing.run(
      (client) => client.themes.chooseTheme({ payload: { themeId } }),
      (choice) => {
        this._choice.replace(choice)
        wearTheme(wornIn(choice))
        return words
      }
    )
  }

  static override styles = [
    sharedStyles,
    css`
      fieldset {
        border: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-2);
      }
      .option {
        display: flex;
        align-items: center;
        gap: var(--node-space-3);
        flex-direction: row;
      }
      .swatch {
        width: 30px;
        height: 20px;
        flex: none;
        border: 1px solid var(--node-border);
        border-radius: 4px;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-themes": SettingsThemes
  }
}

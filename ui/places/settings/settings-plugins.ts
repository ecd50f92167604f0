/** Settings' plugins section (the owner's): what is installed, and what waits in the plugin folder. */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./plugins-available.ts"
import "./plugins-installed.ts"

@customElement("settings-plugins")
export class SettingsPlugins extends LitElement {
  protected override render() {
    return html`<div class="split even">
      <plugins-installed></plugins-installed>
      <plugins-available></plugins-available>
    </div>`
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-plugins": SettingsPlugins
  }
}

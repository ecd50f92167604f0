/** Settings: where this account is signed in, its email address and password, and the theme it wears. */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./settings-email.ts"
import "./settings-password.ts"
import "./settings-sessions.ts"
import "./settings-themes.ts"

@customElement("settings-place")
export class SettingsPlace extends LitElement {
  protected override render() {
    return html`
      <h1>Settings</h1>
      <div class="split">
        <settings-sessions></settings-sessions>
        <settings-email></settings-email>
        <settings-password></settings-password>
        <settings-themes></settings-themes>
      </div>
    `
  }

  static override styles = [sharedStyles, containerStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-place": SettingsPlace
  }
}

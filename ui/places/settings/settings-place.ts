/**
 * Settings, at `/settings`: one section at a time, chosen by `?section=` like the twin's. The
 * account (where it is signed in, its email address and password, the theme it wears), the
 * being's connections to providers, and for the owner the node's models, its plugins and its federation.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import { sectionTabsStyles } from "../../styles/section-tabs-styles.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./settings-assistants.ts"
import "./settings-connections.ts"
import "./settings-email.ts"
import "./settings-federation.ts"
import "./settings-model-providers.ts"
import "./settings-model-tiers.ts"
import "./settings-password.ts"
import "./settings-plugins.ts"
import "./settings-notifications.ts"
import "./settings-sessions.ts"
import "./settings-themes.ts"
import "./settings-your-data.ts"

const sections = [
  ["account", "Account"],
  ["connections", "Connections"],
  ["notifications", "Notifications"],
  ["assistants", "Assistants (MCP)"],
  ["models", "Models"],
  ["plugins", "Plugins"],
  ["federation", "Federation"],
  ["data", "Your data"]
] as const

type Section = (typeof sections)[number][0]

/** Sections only the owner is shown: the node refuses their routes to anyone else. */
const ownerOnly: ReadonlySet<Section> = new Set(["models", "plugins", "federation"])

const isSection = (name: string): name is Section => sections.some(([id]) => id === name)

@customElement("settings-place")
export class SettingsPlace extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  /** The `section` query parameter; anything else opens the account. */
  @property() accessor section = ""

  protected override render() {
    const current: Section = isSection(this.section) ? this.section : "account"
    const owner = this.being?.isOwner === true
    return html`
      <h1 tabindex="-1">Settings</h1>
      <nav class="sections" aria-label="Settings sections">
        <ul>
          ${sections
            .filter(([id]) => !ownerOnly.has(id) || owner)
            .map(
              ([id, label]) => html`<li>
                <a href=${id === "account" ? "/settings" : `/settings?section=${id}`} aria-current=${id === current ? "page" : "false"}>${label}</a>
              </li>`
            )}
        </ul>
      </nav>
      ${this._renderSection(current, owner)}
    `
  }

  private _renderSection(section: Section, owner: boolean) {
    switch (section) {
      case "account":
        return html`<div class="split">
          <settings-sessions></settings-sessions>
          <settings-email></settings-email>
          <settings-password></settings-password>
          <settings-themes></settings-themes>
        </div>`
      case "connections":
        return html`<settings-connections ?owner=${owner}></settings-connections>`
      case "notifications":
        return html`<settings-notifications></settings-notifications>`
      case "assistants":
        return html`<settings-assistants></settings-assistants>`
      case "models":
        return owner
          ? html`<div class="split"><settings-model-providers></settings-model-providers><settings-model-tiers></settings-model-tiers></div>`
          : this.being === null
            ? nothing
            : html`<p class="card">Owner only: the owner binds the node's models.</p>`
      case "plugins":
        // The node refuses the rest of the plugin routes to anyone else; say so before asking.
        return owner
          ? html`<settings-plugins></settings-plugins>`
          : this.being === null
            ? nothing
            : html`<p class="card">Owner only: plugins are installed by the owner of this node.</p>`
      case "data":
        return html`<settings-your-data ?owner=${owner}></settings-your-data>`
      case "federation":
        return owner
          ? html`<settings-federation></settings-federation>`
          : this.being === null
            ? nothing
            : html`<p class="card">Owner only: peers and this node's federation are the owner's.</p>`
    }
  }

  static override styles = [sharedStyles, containerStyles, sectionTabsStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-place": SettingsPlace
  }
}

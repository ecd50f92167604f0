/**
 * The plugins waiting in this node's plugin folder (the owner's Settings), read without running
 * their code: each with what it would add and every capability it asks for, beside what that
 * capability lets it do and, where the plugin gave one, its reason in its own words (a
 * world-acting capability always has one). The node's risk statement comes first. Installing
 * grants what the owner ticked; the node refuses an install that leaves a declared capability
 * out, and its refusal is shown as it says it. A remote MCP server's plugin takes the token the server asks for.
 */
import * as Redacted from "effect/Redacted"
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { CapabilityKind } from "../../../kernel/contract/capabilities.ts"
import type { PluginManifest } from "../../../kernel/contract/manifest.ts"
import type { AvailablePlugin, AvailablePlugins } from "../../../kernel/contract/plugins.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { onSubmit, type SubmittedForm } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { pluginStyles } from "./plugin-styles.ts"

@customElement("plugins-available")
export class PluginsAvailable extends LitElement {
  private readonly _available = new ApiResource(this, (client) => client.plugins.availablePlugins(), {
    reloadOn: ["plugins-changed"]
  })

  private readonly _installing = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="available-title">
      <h2 id="available-title">Available plugins</h2>
      <p class="muted">The folders in this node's plugin folder. Installing runs the plugin's code with the capabilities you grant.</p>
      <node-alert .message=${this._installing.error || this._available.error}></node-alert>
      <node-alert kind="success" .message=${this._installing.notice}></node-alert>
      ${this._available.render("Loading the plugin folder…", (available) => this._renderAvailable(available))}
    </section>`
  }

  private _renderAvailable(available: AvailablePlugins) {
    const waiting = available.plugins.filter((plugin) => !plugin.installed)
    return html`
      <p class="risk" role="note"><span class="label">Before you install:</span> ${available.risk}</p>
      ${
        waiting.length === 0
          ? html`<p class="muted">No plugin is waiting in the plugin folder.</p>`
          : html`<ul class="plugins" aria-label="Available plugins">${waiting.map((plugin) => this._renderPlugin(plugin, available.capabilityNotes))}</ul>`
      }
    `
  }

  private _renderPlugin(plugin: AvailablePlugin, notes: AvailablePlugins["capabilityNotes"]) {
    const manifest = plugin.manifest
    const titleId = `available-${plugin.dir}`
    if (manifest === null) {
      return html`<li class="plugin" aria-labelledby=${titleId}>
        <h3 id=${titleId}>${plugin.dir}</h3>
        <p class="problem">It cannot be installed: ${plugin.error ?? "its manifest could not be read."}</p>
      </li>`
    }
    return html`<li class="plugin" aria-labelledby=${titleId}>
      <h3 id=${titleId}>${manifest.name} <span class="muted">${manifest.version}</span></h3>
      <p class="muted">${manifest.id}${manifest.author === "" ? "" : ` by ${manifest.author}`} · in the folder ${plugin.dir}</p>
      ${manifest.description === "" ? "" : html`<p>${manifest.description}</p>`}
      ${this._renderAdds(manifest)}
      <form @submit=${onSubmit((form) => this._install(plugin.dir, manifest, form))}>
        <fieldset ?disabled=${this._installing.busy}>
          <legend class="label">Capabilities it asks for</legend>
          ${
            manifest.capabilities.length === 0
              ? html`<p class="muted">None: it only computes.</p>`
              : manifest.capabilities.map(
                  (capability) => html`<label class="capability">
                  <input type="checkbox" name="granted" value=${capability.kind} />
                  <span>
                    <strong>${capability.kind}</strong>${capability.kind === "world-acting" ? html` <span class="badge" data-tone="bad">Acts in the world</span>` : ""}
                    <span class="muted">${notes[capability.kind]}</span>
                    ${capability.reason === undefined ? "" : html`<span class="reason">Its reason: <q>${capability.reason}</q></span>`}
                  </span>
                </label>`
                )
          }
        </fieldset>
        ${this._renderRemote(manifest)}
        <div class="actions">
          <button type="submit" ?disabled=${this._installing.busy} aria-label=${`Install ${manifest.name}`}>Install</button>
        </div>
      </form>
    </li>`
  }

  /** A remote MCP server: where its tools come from, and the token it may ask for (sealed, never shown again). */
  private _renderRemote(manifest: PluginManifest) {
    if (manifest.mcp === null || !("url" in manifest.mcp)) return ""
    const tokenId = `mcp-token-${manifest.namespace}`
    return html`<p class="muted">Its tools come from the MCP server at <code>${manifest.mcp.url}</code>.</p>
      <label class="token" for=${tokenId}>
        <span class="label">Token for this server (optional)</span>
        <input id=${tokenId} name="mcpToken" type="password" autocomplete="off" spellcheck="false" maxlength="4096" />
        <span class="muted">Sent to the server as its bearer token; kept sealed on this node and never shown again.</span>
      </label>`
  }

  private _renderAdds(manifest: PluginManifest) {
    if (manifest.extensions.length === 0) return html`<p class="muted">It adds nothing to the node.</p>`
    return html`<p class="label">It would add</p>
      <ul class="contributions">
        ${manifest.extensions.map(
          (extension) =>
            html`<li><span class="badge">${extension.kind}</span> ${extension.title ?? extension.id} <code>${manifest.namespace}.${extension.id}</code></li>`
        )}
      </ul>`
  }

  private async _install(dir: string, manifest: PluginManifest, { form }: SubmittedForm): Promise<void> {
    const data = new FormData(form)
    const granted = data.getAll("granted").map(String) as Array<CapabilityKind>
    const token = String(data.get("mcpToken") ?? "").trim()
    const payload = token === "" ? { dir, granted } : { dir, granted, mcpToken: Redacted.make(token) }
    const done = await this._installing.run(
      (client) => client.plugins.installPlugin({ payload }),
      (installed) =>
        installed.status === "active"
          ? `${manifest.name} is installed.`
          : `${manifest.name} is installed but not running: ${installed.error ?? "it failed to start."}`
    )
    if (done) fireEvent(this, "plugins-changed", {})
  }

  static override styles = [
    sharedStyles,
    pluginStyles,
    css`
      .risk {
        padding: var(--node-space-3);
        border-left: 3px solid var(--node-warning);
        background: var(--node-surface-raised);
        border-radius: var(--node-radius-sm);
      }
      fieldset {
        border: none;
        margin: var(--node-space-3) 0 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-2);
      }
      .capability {
        display: flex;
        flex-direction: row;
        align-items: flex-start;
        gap: var(--node-space-3);
      }
      .capability input {
        margin-top: 0.3em;
      }
      .capability > span {
        display: grid;
        gap: 2px;
      }
      .token {
        display: grid;
        gap: 2px;
        margin-top: var(--node-space-3);
      }
      .reason q {
        font-style: italic;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "plugins-available": PluginsAvailable
  }
}

/**
 * The plugins installed on this node (the owner's Settings): each with what it contributes, its
 * status and, when it is not running, why; the capabilities it was granted; and a way to
 * uninstall it, after a confirmation (its contributions go, its grant is deleted and its folder
 * removed). The built-in plugins are listed folded away: they cannot be uninstalled.
 */
import { css, html, LitElement } from "lit"
import { customElement, query } from "lit/decorators.js"
import type { InstalledPlugin } from "../../../kernel/contract/plugins.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { pluginStyles } from "./plugin-styles.ts"

const sourceWords = (plugin: InstalledPlugin): string => {
  switch (plugin.source.kind) {
    case "builtin":
      return "Built in"
    case "local":
      return `From the folder ${plugin.source.dir}`
    case "market":
      return `From the market (${plugin.source.packageName} ${plugin.source.version})`
    case "url":
      return `From ${plugin.source.url}`
  }
}

@customElement("plugins-installed")
export class PluginsInstalled extends LitElement {
  private readonly _installed = new ApiResource(this, (client) => client.plugins.listPlugins(), {
    reloadOn: ["plugins-changed"]
  })

  private readonly _uninstalling = new ApiAction(this)

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  protected override render() {
    return html`<section class="card" aria-labelledby="installed-title">
      <h2 id="installed-title">Installed plugins</h2>
      <node-alert .message=${this._uninstalling.error || this._installed.error}></node-alert>
      <node-alert kind="success" .message=${this._uninstalling.notice}></node-alert>
      ${this._installed.render("Loading the installed plugins…", (plugins) => this._renderPlugins(plugins))}
      <confirm-dialog></confirm-dialog>
    </section>`
  }

  private _renderPlugins(plugins: ReadonlyArray<InstalledPlugin>) {
    const added = plugins.filter((plugin) => plugin.source.kind !== "builtin")
    const builtins = plugins.filter((plugin) => plugin.source.kind === "builtin")
    return html`
      ${
        added.length === 0
          ? html`<p class="muted">No plugin is installed beyond the built-in ones.</p>`
          : html`<ul class="plugins" aria-label="Installed plugins">${added.map((plugin) => this._renderPlugin(plugin))}</ul>`
      }
      ${
        builtins.length === 0
          ? ""
          : html`<details>
            <summary>Built in (${builtins.length})</summary>
            <ul class="plugins" aria-label="Built-in plugins">${builtins.map((plugin) => this._renderPlugin(plugin))}</ul>
          </details>`
      }
    `
  }

  private _renderPlugin(plugin: InstalledPlugin) {
    const titleId = `installed-${plugin.namespace}`
    return html`<li class="plugin" aria-labelledby=${titleId}>
      <h3 id=${titleId}>
        ${plugin.name} <span class="muted">${plugin.version}</span>
        <span class="badge" data-tone=${plugin.status === "active" ? "good" : "bad"}>${plugin.status === "active" ? "Active" : "Error"}</span>
      </h3>
      <p class="muted">${plugin.id} · ${sourceWords(plugin)}</p>
      ${plugin.description === "" ? "" : html`<p>${plugin.description}</p>`}
      ${plugin.error === null ? "" : html`<p class="problem">Not running: ${plugin.error}</p>`}
      ${
        plugin.contributions.length === 0
          ? html`<p class="muted">It contributes nothing.</p>`
          : html`<p class="label">It contributes</p>
            <ul class="contributions">
              ${plugin.contributions.map(
                (contribution) =>
                  html`<li><span class="badge">${contribution.kind}</span> ${contribution.title ?? contribution.name} <code>${contribution.name}</code>${contribution.worldActing === true ? html` <span class="badge" data-tone="bad">Asks your approval</span>` : ""}</li>`
              )}
            </ul>`
      }
      <p><span class="label">Granted:</span> ${plugin.granted.length === 0 ? "nothing" : plugin.granted.join(", ")}</p>
      ${
        plugin.source.kind === "builtin"
          ? ""
          : html`<div class="actions">
            <button class="danger" type="button" ?disabled=${this._uninstalling.busy} aria-label=${`Uninstall ${plugin.name}`} @click=${() => this._uninstall(plugin)}>
              Uninstall
            </button>
          </div>`
      }
    </li>`
  }

  private async _uninstall(plugin: InstalledPlugin): Promise<void> {
    const sure = await this._confirm.ask({
      title: `Uninstall ${plugin.name}?`,
      message:
        "What it contributes goes away at once, its grant is deleted and its folder is removed from the plugin folder, with the data it kept there.",
      confirm: "Uninstall"
    })
    if (!sure) return
    const done = await this._uninstalling.run(
      // The typed client puts a path parameter in as it is: the id's "/" must be escaped.
      (client) => client.plugins.uninstallPlugin({ path: { id: encodeURIComponent(plugin.id) } }),
      ({ removedDir }) =>
        removedDir
          ? `${plugin.name} is uninstalled and its folder removed.`
          : `${plugin.name} is uninstalled, but its folder could not be deleted: remove it by hand.`
    )
    // A refusal reloads too: the list may be out of date, which is often why it failed.
    if (done) fireEvent(this, "plugins-changed", {})
    else await this._installed.reload()
  }

  static override styles = [
    sharedStyles,
    pluginStyles,
    css`
      details {
        margin-top: var(--node-space-4);
      }
      summary {
        cursor: pointer;
        font-weight: var(--node-font-weight-semibold);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "plugins-installed": PluginsInstalled
  }
}

/**
 * Settings' connections section (every being): the node's providers, each with whether it is
 * configured on this server and connected by this being, the being's own connections to it (each
 * can be disconnected, synced when its provider syncs, and shows its delivery address when it is a
 * webhook), and a form to connect built from the provider's auth: its fields (a secret
 * one typed as a password), its path, or its start link. Mail also offers the provider's own
 * consent screen (`/api/connections/mail_a/auth`); chat_a shows its pairing code while the node
 * answers one. The owner also finds the node's OAuth clients below (settings-oauth-clients.ts).
 */
import { css, html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Connection, ProviderDescriptor } from "../../../extensions/twin/contract/connections.ts"
import type { TwinProviderStatus } from "../../../extensions/twin/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { pluginStyles } from "./plugin-styles.ts"
import "./chat-pairing.ts"
import { connectionForm, forgetMadeSecret } from "./connection-form.ts"
import "./settings-oauth-clients.ts"

const statusWords: Record<Connection["status"], string> = {
  connected: "Connected",
  pending: "Waiting to finish",
  error: "Failing",
  disconnected: "Disconnected"
}

@customElement("settings-connections")
export class SettingsConnections extends LitElement {
  /** The owner also sets the node's OAuth clients here. */
  @property({ type: Boolean }) accessor owner = false

  private readonly _providers = new ApiResource(this, (client) => client.connections.providers())

  private readonly _connections = new ApiResource(this, (client) => client.connections.list())

  /** configured and connected per provider, as the twin's status tells them. */
  private readonly _status = new ApiResource(this, (client) => client.twin.status())

  private readonly _acting = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="connections-title">
      <h2 id="connections-title">Connections</h2>
      <p class="muted">Your own accounts and folders, for the skills and your twin. Secrets are kept encrypted and never shown again.</p>
      <node-alert .message=${this._acting.error || this._providers.error || this._connections.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${this._providers.render(
        "Loading the providers…",
        (providers) =>
          html`<ul class="plugins" aria-label="Providers">${providers.map((provider) => this._renderProvider(provider))}</ul>`
      )}
    </section>
    ${this.owner ? html`<settings-oauth-clients @oauth-clients-changed=${() => this._providers.reload()}></settings-oauth-clients>` : ""}`
  }

  private _renderProvider(provider: ProviderDescriptor) {
    const titleId = `provider-${provider.id}`
    const status: TwinProviderStatus | undefined = this._status.value?.providers.find(
      (one) => one.provider === provider.id
    )
    const mine = (this._connections.value ?? []).filter((connection) => connection.provider === provider.id)
    return html`<li class="plugin" aria-labelledby=${titleId}>
      <h3 id=${titleId}>
        <span aria-hidden="true">${provider.icon}</span> ${provider.title}
        ${
          status === undefined
            ? ""
            : html`<span class="badge" data-tone=${status.configured ? "good" : ""}>${status.configured ? "Configured" : "Not configured"}</span>
              <span class="badge" data-tone=${status.connected ? "good" : ""}>${status.connected ? "Connected" : "Not connected"}</span>`
        }
      </h3>
      ${provider.description === "" ? "" : html`<p>${provider.description}</p>`}
      ${status?.hint == null ? "" : html`<p class="muted">${status.hint}</p>`}
      ${
        mine.length === 0
          ? ""
          : html`<ul class="contributions" aria-label=${`Your ${provider.title} connections`}>
            ${mine.map(
              (connection) => html`<li>
                ${connection.label} <span class="badge">${statusWords[connection.status]}</span>
                ${
                  provider.auth.kind === "webhook"
                    ? html`<p>Deliveries go to <code>${location.origin}${provider.auth.path.replace(":connectionId", connection.id)}</code></p>`
                    : ""
                }
                ${
                  provider.syncable && connection.status === "connected"
                    ? html`<button class="small" type="button" ?disabled=${this._acting.busy || status?.sync.status === "running"} aria-label=${`Sync ${provider.title}`}
                      @click=${() => this._sync(provider)}>Sync now</button>`
                    : ""
                }
                <button class="secondary small" type="button" ?disabled=${this._acting.busy} aria-label=${`Disconnect ${connection.label}`}
                  @click=${() => this._disconnect(connection)}>Disconnect</button>
              </li>`
            )}
          </ul>`
      }
      ${
        provider.id === "mail_a"
          ? html`<p><a class="button secondary" href="/api/connections/mail_a/auth">Connect with your mail provider</a></p>`
          : ""
      }
      ${provider.id === "chat_a" ? html`<chat-pairing></chat-pairing>` : ""}
      ${connectionForm(provider, this.owner, this._acting.busy, (config, form) => this._connect(provider, config, form))}
    </li>`
  }

  private async _connect(
    provider: ProviderDescriptor,
    config: Record<string, string>,
    form: HTMLFormElement
  ): Promise<void> {
    const { label = "", ...fields } = config
    const done = await this._acting.run(
      (client) =>
        client.connections.create({
          payload: { provider: provider.id, config: fields, ...(label === "" ? {} : { label }) }
        }),
      (connection) => `${provider.title}: ${connection.label} is ${statusWords[connection.status].toLowerCase()}.`
    )
    // A secret does not linger in a form once the node has it.
    if (done) {
      forgetMadeSecret(provider.id)
      form.reset()
    }
    await this._reloadAll()
  }

  /** The sync runs in the background: its end shows in the status (and the twin's activity). */
  private async _sync(provider: ProviderDescriptor): Promise<void> {
    await this._acting.run(
      (client) => client.twin.sync({ path: { provider: provider.id }, urlParams: {} }),
      () => `Syncing ${provider.title}…`
    )
    await this._reloadAll()
  }

  private async _disconnect(connection: Connection): Promise<void> {
    await this._acting.run(
      (client) => client.connections.remove({ path: { id: connection.id } }),
      () => `${connection.label} is disconnected.`
    )
    await this._reloadAll()
  }

  private async _reloadAll(): Promise<void> {
    await Promise.all([this._connections.reload(), this._status.reload()])
  }

  static override styles = [
    sharedStyles,
    pluginStyles,
    css`
      button.small {
        min-height: 32px;
        padding: var(--node-space-1) var(--node-space-3);
        margin-left: var(--node-space-2);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-connections": SettingsConnections
  }
}

/**
 * Settings → Connections → OAuth clients (the owner only): for each plugin provider that connects
 * through OAuth 2.0, the client this node uses there. The owner types the client id and secret;
 * the secret is sent once and never shown again (the node answers only that one is set). A client
 * in the node's environment wins over this one, and the section says so. Each change is told to
 * the connections section (`oauth-clients-changed`), whose Connect buttons depend on it.
 */
import { html, LitElement, nothing } from "lit"
import { customElement } from "lit/decorators.js"
import { clientSettingNames, type OAuthClientState } from "../../../extensions/twin/contract/oauth-clients.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { pluginStyles } from "./plugin-styles.ts"

const sourceWords = (client: OAuthClientState) => {
  switch (client.source) {
    case "environment":
      return `From the node's environment (${clientSettingNames(client.provider).id} and ${clientSettingNames(client.provider).secret}): it wins over a client set here.`
    case "settings":
      return "Set here; the secret is kept encrypted and not shown again."
    case "none":
      return "No client yet: nobody can connect it until one is set."
  }
}

@customElement("settings-oauth-clients")
export class SettingsOAuthClients extends LitElement {
  private readonly _clients = new ApiResource(this, (client) => client.oauthClients.list())

  private readonly _acting = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="oauth-clients-title">
      <h2 id="oauth-clients-title">OAuth clients</h2>
      <p class="muted">The client this node uses at each provider that connects through OAuth 2.0, as registered with that provider.
        A client set in the node's environment wins over one set here.</p>
      <node-alert .message=${this._acting.error || this._clients.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${this._clients.render("Loading the OAuth clients…", (clients) =>
        clients.length === 0
          ? html`<p class="muted">No installed plugin connects through OAuth 2.0.</p>`
          : html`<ul class="plugins" aria-label="OAuth clients">${clients.map((client) => this._renderClient(client))}</ul>`
      )}
    </section>`
  }

  private _renderClient(client: OAuthClientState) {
    const titleId = `oauth-client-${client.provider}`
    return html`<li class="plugin" aria-labelledby=${titleId}>
      <h3 id=${titleId}>
        ${client.provider}
        <span class="badge" data-tone=${client.source === "none" ? "" : "good"}>${client.source === "none" ? "Not configured" : "Configured"}</span>
      </h3>
      <p class="muted">${sourceWords(client)}</p>
      ${client.clientId === null ? nothing : html`<p>Client id: <code>${client.clientId}</code></p>`}
      <form aria-label=${`OAuth client for ${client.provider}`}
        @submit=${onSubmit(({ form, field }) => this._save(client.provider, field("clientId"), field("clientSecret"), form))}>
        <label>Client id
          <input name="clientId" required maxlength="256" autocomplete="off" spellcheck="false"
            .value=${client.source === "settings" ? (client.clientId ?? "") : ""} />
        </label>
        <label>Client secret
          <input name="clientSecret" type="password" required maxlength="512" autocomplete="new-password"
            placeholder=${client.source === "settings" ? "Set: type a new one to replace it" : ""} />
        </label>
        <div class="actions">
          <button type="submit" ?disabled=${this._acting.busy}>Save client</button>
          ${
            client.source === "settings"
              ? html`<button class="secondary" type="button" ?disabled=${this._acting.busy} @click=${() => this._remove(client.provider)}>Remove</button>`
              : nothing
          }
        </div>
      </form>
    </li>`
  }

  private async _save(provider: string, clientId: string, clientSecret: string, form: HTMLFormElement): Promise<void> {
    const done = await this._acting.run(
      (client) =>
        client.oauthClients.set({
          path: { provider },
          payload: { clientId: clientId.trim(), clientSecret: clientSecret.trim() }
        }),
      (state) =>
        state.source === "environment"
          ? `Saved for ${provider}, but the node's environment sets a client for it, which is the one used.`
          : `The OAuth client for ${provider} is saved.`
    )
    // The secret does not linger in the page once the node has it.
    if (done) form.querySelector<HTMLInputElement>("input[name=clientSecret]")!.value = ""
    await this._changed()
  }

  private async _remove(provider: string): Promise<void> {
    await this._acting.run(
      (client) => client.oauthClients.remove({ path: { provider } }),
      () => `The OAuth client for ${provider} set here is removed.`
    )
    await this._changed()
  }

  private async _changed(): Promise<void> {
    await this._clients.reload()
    this.dispatchEvent(new CustomEvent("oauth-clients-changed", { bubbles: true, composed: true }))
  }

  static override styles = [sharedStyles, pluginStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-oauth-clients": SettingsOAuthClients
  }
}

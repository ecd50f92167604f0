/**
 * Settings → Models → Providers (the owner only): the OpenAI-compatible servers this node may call.
 * Add one with a name, a base URL and a key (the key is sent once and never shown again); Check
 * asks it for its models and says how fast it answered; edit or remove one added here. The
 * environment's servers and the built-in demo models are listed too, read-only. "Find local servers"
 * asks this machine's usual ports (Ollama, llama.cpp, vLLM, LM Studio) and offers what answers.
 * Each change is told to the tiers (`models-changed`), whose provider pickers read this list.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { DetectedServers, LlmProvider, ProviderCheck } from "../../../extensions/models/contract/providers.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { demoModelsWords, useDemoModels } from "../../components/demo-models.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { pluginStyles } from "./plugin-styles.ts"

const sourceWords: Record<LlmProvider["source"], string> = {
  settings: "Added here",
  environment: "From the node's environment (read-only)",
  builtin: "Built in: placeholder text, nothing leaves this machine"
}

const checkWords = (provider: LlmProvider) =>
  provider.error !== null
    ? html`<p class="problem">Last check: ${provider.error}</p>`
    : provider.models === null
      ? html`<p class="muted">Not checked yet.</p>`
      : html`<p class="muted">${provider.models.length === 0 ? "Lists no models." : `Models: ${provider.models.join(", ")}`}</p>`

@customElement("settings-model-providers")
export class SettingsModelProviders extends LitElement {
  private readonly _providers = new ApiResource(this, (client) => client.llm.providers())

  private readonly _acting = new ApiAction(this)

  /** The provider whose edit form is open. */
  @state() private accessor _editing: string | null = null

  @state() private accessor _found: DetectedServers["found"] | null = null

  protected override render() {
    return html`<section class="card" aria-labelledby="providers-title">
      <h2 id="providers-title">Providers</h2>
      <p class="muted">OpenAI-compatible servers: a provider with its key, or a server on this machine or network, which needs none.
        A key is kept encrypted and never shown again.</p>
      <node-alert .message=${this._acting.error || this._providers.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${this._providers.render(
        "Loading the providers…",
        (providers) => html`<ul class="plugins" aria-label="Providers">
          ${providers.map((provider) => this._renderProvider(provider))}
        </ul>`
      )}
      <h3>Add a provider</h3>
      <form aria-label="Add a provider" @submit=${onSubmit(({ field, clear }) => this._add(field("name"), field("baseUrl"), field("apiKey"), clear))}>
        ${this._fields(null)}
        <div class="actions"><button type="submit" ?disabled=${this._acting.busy}>Add provider</button></div>
      </form>
      <h3>Local servers</h3>
      <p class="muted">Ollama, llama.cpp, vLLM and LM Studio on this machine's usual ports. Found ones are offered, never bound.</p>
      <div class="actions"><button class="secondary" type="button" ?disabled=${this._acting.busy} @click=${this._detect}>Find local servers</button></div>
      ${this._renderFound()}
    </section>`
  }

  private _fields(provider: LlmProvider | null) {
    return html`<label>Name
        <input name="name" required maxlength="80" autocomplete="off" .value=${provider?.name ?? ""} />
      </label>
      <label>Base URL
        <input name="baseUrl" type="url" required maxlength="2000" autocomplete="off" spellcheck="false"
          placeholder="https://api.openai.com/v1" .value=${provider?.baseUrl ?? ""} />
      </label>
      <label>API key <span class="muted">(optional for a local server)</span>
        <input name="apiKey" type="password" maxlength="4096" autocomplete="new-password"
          placeholder=${provider?.hasKey === true ? "Set: type a new one to replace it" : ""} />
      </label>`
  }

  private _renderProvider(provider: LlmProvider) {
    const titleId = `provider-${provider.id}`
    const own = provider.source === "settings"
    return html`<li class="plugin" aria-labelledby=${titleId}>
      <h3 id=${titleId}>
        ${provider.name}
        <span class="badge" data-tone=${provider.local ? "good" : ""}>${provider.local ? "Stays on this machine" : "Leaves this machine"}</span>
      </h3>
      <p class="muted">${sourceWords[provider.source]} · <code>${provider.baseUrl}</code>${provider.hasKey ? " · key set" : ""}</p>
      ${checkWords(provider)}
      <div class="actions">
        <button class="secondary" type="button" ?disabled=${this._acting.busy} @click=${() => this._check(provider)}>Check ${provider.name}</button>
        ${provider.source === "builtin" ? html`<button class="secondary" type="button" ?disabled=${this._acting.busy} @click=${this._useDemo}>Use the demo models where nothing is bound</button>` : nothing}
        ${
          own
            ? html`<button class="secondary" type="button" @click=${() => (this._editing = this._editing === provider.id ? null : provider.id)}>Edit ${provider.name}</button>
              <button class="secondary" type="button" ?disabled=${this._acting.busy} @click=${() => this._remove(provider)}>Remove ${provider.name}</button>`
            : nothing
        }
      </div>
      ${
        own && this._editing === provider.id
          ? html`<form aria-label=${`Edit ${provider.name}`} @submit=${onSubmit(({ field }) => this._change(provider, field("name"), field("baseUrl"), field("apiKey")))}>
              ${this._fields(provider)}
              <div class="actions">
                <button type="submit" ?disabled=${this._acting.busy}>Save</button>
                ${provider.hasKey ? html`<button class="secondary" type="button" ?disabled=${this._acting.busy} @click=${() => this._removeKey(provider)}>Remove the key</button>` : nothing}
              </div>
            </form>`
          : nothing
      }
    </li>`
  }

  private _renderFound() {
    if (this._found === null) return nothing
    if (this._found.length === 0) return html`<p class="muted" role="status">No local server answered.</p>`
    return html`<ul class="plugins" aria-label="Local servers found">
      ${this._found.map(
        (server) => html`<li class="plugin">
          <p><code>${server.baseUrl}</code> · ${server.models.length} model${server.models.length === 1 ? "" : "s"}</p>
          <button type="button" ?disabled=${this._acting.busy} @click=${() => this._add(`Local server ${new URL(server.baseUrl).port}`, server.baseUrl, "", () => true)}>Add ${server.baseUrl}</button>
        </li>`
      )}
    </ul>`
  }

  private async _add(name: string, baseUrl: string, apiKey: string, clear: () => boolean): Promise<void> {
    const key = apiKey.trim()
    const done = await this._acting.run(
      (client) => client.llm.addProvider({ payload: { name, baseUrl, ...(key === "" ? {} : { apiKey: key }) } }),
      (added) => `${added.name} is added. Check it to see its models, then bind tiers to it below.`
    )
    if (done) clear()
    await this._changed()
  }

  private async _change(provider: LlmProvider, name: string, baseUrl: string, apiKey: string): Promise<void> {
    const key = apiKey.trim()
    const done = await this._acting.run(
      (client) =>
        client.llm.changeProvider({
          path: { id: provider.id },
          payload: { name, baseUrl, ...(key === "" ? {} : { apiKey: key }) }
        }),
      (changed) => `${changed.name} is saved.`
    )
    if (done) this._editing = null
    await this._changed()
  }

  private async _removeKey(provider: LlmProvider): Promise<void> {
    await this._acting.run(
      (client) => client.llm.changeProvider({ path: { id: provider.id }, payload: { apiKey: null } }),
      () => `${provider.name}'s key is removed.`
    )
    await this._changed()
  }

  private async _remove(provider: LlmProvider): Promise<void> {
    await this._acting.run(
      (client) => client.llm.removeProvider({ path: { id: provider.id } }),
      () => `${provider.name} is removed.`
    )
    await this._changed()
  }

  private async _check(provider: LlmProvider): Promise<void> {
    let failed: ProviderCheck | null = null
    await this._acting.run(
      (client) => client.llm.checkProvider({ path: { id: provider.id } }),
      (check: ProviderCheck) => {
        if (!check.ok) failed = check
        else
          return `${provider.name} answered in ${check.latencyMs} ms with ${check.models.length} model${check.models.length === 1 ? "" : "s"}.`
      }
    )
    // The node answered, but the provider did not: said as a problem, in the provider's words.
    if (failed !== null) this._acting.fail(`${provider.name} ${(failed as ProviderCheck).error ?? "did not answer"}.`)
    await this._changed()
  }

  private readonly _useDemo = async (): Promise<void> => {
    await this._acting.run(useDemoModels, demoModelsWords)
    await this._changed()
  }

  private readonly _detect = async (): Promise<void> => {
    await this._acting.run(
      (client) => client.llm.detectProviders(),
      (answer) => {
        this._found = answer.found
      }
    )
  }

  private async _changed(): Promise<void> {
    await this._providers.reload()
    fireEvent(this, "models-changed", {})
  }

  static override styles = [sharedStyles, pluginStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-model-providers": SettingsModelProviders
  }
}

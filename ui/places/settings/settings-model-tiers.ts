/**
 * Settings → Models → Tiers (the owner only): the nine jobs the node calls models for, each bound
 * to a provider's model. A tier bound here wins over the node's environment and serves the next
 * call at once; "Use the environment's" hands it back. Each says where its text goes and what it
 * spent today and this month against the node's day ceiling.
 */
import { html, LitElement, nothing } from "lit"
import { customElement } from "lit/decorators.js"
import type { LlmProvider, TierState } from "../../../extensions/models/contract/providers.ts"
import type { ModelTier } from "../../../extensions/models/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { pluginStyles } from "./plugin-styles.ts"

const jobs: Record<ModelTier, string> = {
  cheap: "quick jobs: titles, summaries, the twin's learning",
  standard: "the Muse, the studio's agents, most skills",
  strong: "the studio's planner and reviewer",
  ocr: "reading scanned pages",
  embed: "memory search",
  image: "pictures",
  transcribe: "speech to text",
  speech: "text to speech",
  video: "video"
}

const usd = (amount: number) => `$${amount.toFixed(2)}`

const sourceWords = (tier: TierState, providers: ReadonlyArray<LlmProvider>) => {
  const name = providers.find((provider) => provider.id === tier.providerId)?.name ?? tier.providerId
  switch (tier.source) {
    case "settings":
      return `Bound here to ${tier.model} of ${name}.`
    case "environment":
      return `From the node's environment: ${tier.model} of ${name}.`
    case "none":
      return "Nothing can be called yet: bind a provider's model."
  }
}

@customElement("settings-model-tiers")
export class SettingsModelTiers extends LitElement {
  private readonly _tiers = new ApiResource(this, (client) => client.llm.tiers(), { reloadOn: ["models-changed"] })

  private readonly _providers = new ApiResource(this, (client) => client.llm.providers(), {
    reloadOn: ["models-changed"]
  })

  private readonly _acting = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="tiers-title">
      <h2 id="tiers-title">Tiers</h2>
      <p class="muted">Each job the node calls a model for. A binding here wins over the node's environment and takes effect at the next call.</p>
      <node-alert .message=${this._acting.error || this._tiers.error || this._providers.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${this._tiers.render("Loading the tiers…", (tiers) => html`<ul class="plugins" aria-label="Tiers">${tiers.map((tier) => this._renderTier(tier))}</ul>`)}
    </section>`
  }

  private _renderTier(tier: TierState) {
    const providers = this._providers.value ?? []
    const titleId = `tier-${tier.tier}`
    const chosen = providers.find((provider) => provider.id === tier.providerId) ?? providers[0]
    const listId = `tier-models-${tier.tier}`
    return html`<li class="plugin" aria-labelledby=${titleId}>
      <h3 id=${titleId}>
        ${tier.tier}
        ${tier.source === "none" ? html`<span class="badge">Not bound</span>` : html`<span class="badge" data-tone=${tier.leavesHost ? "" : "good"}>${tier.leavesHost ? "Text leaves this machine" : "Stays on this machine"}</span>`}
      </h3>
      <p class="muted">For ${jobs[tier.tier]}. ${sourceWords(tier, providers)}</p>
      <p class="muted">Spent ${usd(tier.spentTodayUsd)} today and ${usd(tier.spentMonthUsd)} this month; the node's day ceiling is ${usd(tier.ceilingUsd)}.</p>
      ${tier.warning === null ? nothing : html`<p class="problem">${tier.warning}</p>`}
      <form aria-label=${`Bind the ${tier.tier} tier`} @submit=${onSubmit(({ field }) => this._bind(tier.tier, field("providerId"), field("model")))}>
        <label>Provider
          <select name="providerId" required>
            ${providers.map((provider) => html`<option value=${provider.id} ?selected=${provider.id === chosen?.id}>${provider.name}</option>`)}
          </select>
        </label>
        <label>Model
          <input name="model" required maxlength="200" autocomplete="off" spellcheck="false" list=${listId}
            .value=${tier.model ?? ""} />
        </label>
        <datalist id=${listId}>${providers.flatMap((provider) => provider.models ?? []).map((model) => html`<option value=${model}></option>`)}</datalist>
        <div class="actions">
          <button type="submit" ?disabled=${this._acting.busy || providers.length === 0}>Bind ${tier.tier}</button>
          ${tier.source === "settings" ? html`<button class="secondary" type="button" ?disabled=${this._acting.busy} @click=${() => this._unbind(tier.tier)}>Use the environment's</button>` : nothing}
        </div>
      </form>
    </li>`
  }

  private async _bind(tier: ModelTier, providerId: string, model: string): Promise<void> {
    const done = await this._acting.run(
      (client) => client.llm.bindTier({ path: { tier }, payload: { providerId, model: model.trim() } }),
      (bound) => bound.warning ?? `The ${tier} tier now calls ${bound.model}.`
    )
    if (done) fireEvent(this, "models-changed", {})
  }

  private async _unbind(tier: ModelTier): Promise<void> {
    const done = await this._acting.run(
      (client) => client.llm.unbindTier({ path: { tier } }),
      () => `The ${tier} tier is back on the node's environment.`
    )
    if (done) fireEvent(this, "models-changed", {})
  }

  static override styles = [sharedStyles, pluginStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-model-tiers": SettingsModelTiers
  }
}

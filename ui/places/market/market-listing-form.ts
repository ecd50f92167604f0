/**
 * Publishing a listing, or editing one (`listing` set). What is sold is picked from the person's
 * own generators, agents or themes (the node checks it too: a refId must be the seller's); a
 * generator listing may sell nothing existing (the node then makes a two-step generator from the
 * title and description); a skill names one of the node's skills; a module a bundle among the
 * person's files (its plugin.json, found by a file search); a service carries the brief a
 * purchase runs. Tags are written with commas. Saving tells the section (`listing-saved`). The
 * inputs' values are attributes, so a reset after publishing brings back the defaults (price 0).
 */
import * as Effect from "effect/Effect"
import { html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Listing, ListingInput, ListingKind } from "../../../extensions/market/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { kindLabels, listingKinds } from "./market-labels.ts"

interface Choice {
  readonly id: string
  readonly name: string
}

/** The person's own things of each kind a listing can point at. */
interface Owned {
  readonly generator: ReadonlyArray<Choice>
  readonly agent: ReadonlyArray<Choice>
  readonly theme: ReadonlyArray<Choice>
  readonly skill: ReadonlyArray<Choice>
  /** Module bundles among the person's files: each `plugin.json` found, named by its folder. */
  readonly module: ReadonlyArray<Choice>
}

const MANIFEST = "plugin.json"

/** A bundle's folder as the picker names it: its path, and the project it is in. */
const bundleName = (entry: { readonly path: string; readonly scope: string; readonly projectId: string | null }) => {
  const folder = entry.path.slice(0, Math.max(0, entry.path.length - MANIFEST.length - 1)) || "(top folder)"
  return entry.scope === "project" ? `${folder} (project ${entry.projectId ?? ""})` : `${folder} (uploads)`
}

const isKind = (value: string): value is ListingKind => listingKinds.some((kind) => kind === value)

@customElement("market-listing-form")
export class MarketListingForm extends LitElement {
  /** The listing being edited; null to publish a new one. */
  @property({ attribute: false }) accessor listing: Listing | null = null

  /** The signed-in being's id: the picker lists what this being owns. */
  @property() accessor selfId = ""

  @state() private accessor _kind: ListingKind | null = null

  private readonly _saving = new ApiAction(this)

  private readonly _owned = new ApiResource(this, (client) =>
    Effect.map(
      Effect.all(
        [
          client.studioGenerators.listGenerators(),
          client.studioAgents.listAgents(),
          client.themes.listThemes(),
          client.studioSkills.listSkills(),
          client.files.search({ urlParams: { q: MANIFEST } })
        ],
        { concurrency: "unbounded" }
      ),
      ([generators, agents, themes, skills, manifests]): Owned => ({
        // The node lists public generators and agents too: only one's own may be sold.
        generator: generators
          .filter((generator) => generator.ownerId === this.selfId)
          .map(({ id, name }) => ({ id, name })),
        agent: agents.filter((agent) => agent.ownerId === this.selfId).map(({ id, name }) => ({ id, name })),
        theme: themes.themes.filter((theme) => theme.source === "owned").map(({ id, name }) => ({ id, name })),
        skill: skills.map((skill) => ({ id: skill.name, name: skill.name })),
        // The node takes a bundle's plugin.json as naming its folder.
        module: manifests
          .filter((entry) => entry.name === MANIFEST && entry.scope !== "user")
          .map((entry) => ({ id: entry.id, name: bundleName(entry) }))
      })
    )
  )

  protected override render() {
    const listing = this.listing
    const kind = this._kind ?? listing?.kind ?? "generator"
    const busy = this._saving.busy
    return html`<form @submit=${this._save}>
      <label
        >Kind
        <select name="kind" ?disabled=${listing !== null} @change=${this._onKind}>
          ${listingKinds.map((option) => html`<option value=${option} ?selected=${option === kind}>${kindLabels[option]}</option>`)}
        </select>
      </label>
      ${this._renderRef(kind)}
      <label>Title <input name="title" required maxlength="160" value=${listing?.title ?? ""} /></label>
      <label>Description <textarea name="description" maxlength="4000" rows="3" .value=${listing?.description ?? ""}></textarea></label>
      ${
        kind === "service"
          ? html`<label>Brief (what a purchase runs) <textarea name="brief" maxlength="8000" rows="3" .value=${listing?.brief ?? ""}></textarea></label>`
          : nothing
      }
      <label>Price in credits <input name="priceCredits" type="number" min="0" max="1000000" step="1" required value=${String(listing?.priceCredits ?? 0)} /></label>
      <label>Tags, with commas <input name="tags" value=${listing?.tags.join(", ") ?? ""} placeholder="writing, research" /></label>
      <node-alert .message=${this._saving.error}></node-alert>
      <div class="actions">
        <button type="submit" ?disabled=${busy}>${busy ? "Saving…" : listing === null ? "Publish" : "Save changes"}</button>
      </div>
    </form>`
  }

  private _renderRef(kind: ListingKind) {
    if (kind === "service") return nothing
    const owned = this._owned.value
    const choices = owned === null ? [] : owned[kind]
    const current = this.listing?.refId ?? ""
    const none = kind === "generator" ? "None: one is made from the words of the listing" : null
    return html`<label
      >What you sell
      <select name="refId" ?required=${none === null}>
        ${none === null ? html`<option value="" ?selected=${current === ""} disabled>Choose one of yours</option>` : html`<option value="">${none}</option>`}
        ${choices.map((choice) => html`<option value=${choice.id} ?selected=${choice.id === current}>${choice.name}</option>`)}
      </select>
    </label>
    ${
      owned !== null && choices.length === 0 && none === null
        ? html`<p class="muted">You have no ${kindLabels[kind].toLowerCase()} to sell yet.</p>`
        : nothing
    }`
  }

  private _onKind(event: Event): void {
    const value = (event.target as HTMLSelectElement).value
    if (isKind(value)) this._kind = value
  }

  private readonly _save = onSubmit(async ({ field, clear }) => {
    const kind = this.listing?.kind ?? (isKind(field("kind")) ? (field("kind") as ListingKind) : "generator")
    const refId = field("refId")
    const input: ListingInput = {
      kind,
      refId: refId === "" ? null : refId,
      title: field("title").trim(),
      description: field("description"),
      cover: this.listing?.cover ?? null,
      priceCredits: Number(field("priceCredits")),
      tags: field("tags")
        .split(",")
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ""),
      brief: kind === "service" ? field("brief") : null
    }
    const editing = this.listing
    const saved = await this._saving.run(
      (client) =>
        editing === null
          ? client.market.publishListing({ payload: input })
          : client.market.updateListing({ path: { id: editing.id }, payload: { ...input, status: editing.status } }),
      (listing) => fireEvent(this, "listing-saved", { listing })
    )
    // A published listing leaves the form empty for the next one.
    if (saved && editing === null && clear()) this._kind = null
  })

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "market-listing-form": MarketListingForm
  }
}

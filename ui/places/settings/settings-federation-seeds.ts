/**
 * The owner's seeds (devices paired with this node): each with its did, grants, status, what it
 * sent (beats, acts, refusals), when it was last seen and its last note. Pair one by its did and a
 * name with the grants ticked (none unless ticked); edit its grants, block or unblock it, or
 * remove its pairing (its being stays, which the confirmation says).
 */
import { css, html, LitElement } from "lit"
import { customElement, query } from "lit/decorators.js"
import type { SeedGrant, SeedPairing } from "../../../extensions/federation/contract/seeds.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit, type SubmittedForm } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const grantWords: ReadonlyArray<readonly [SeedGrant, string]> = [
  ["signals", "Signals: raise signals on your desktop"],
  ["storage", "Storage: keep values of its own"]
]

const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

const grantsOf = (form: HTMLFormElement) => new FormData(form).getAll("grant").map(String) as Array<SeedGrant>

@customElement("settings-federation-seeds")
export class SettingsFederationSeeds extends LitElement {
  private readonly _seeds = new ApiResource(this, (client) => client.federationSeeds.listSeeds())

  private readonly _acting = new ApiAction(this)

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  protected override render() {
    return html`
      <section class="card" aria-labelledby="seeds-title">
        <h2 id="seeds-title">Seeds</h2>
        <p class="muted">Devices paired with this node. A seed signs what it sends with its own key and may only do what you grant it; network is never granted.</p>
        <node-alert .message=${this._acting.error || this._seeds.error}></node-alert>
        <node-alert kind="success" .message=${this._acting.notice}></node-alert>
        ${this._seeds.render("Loading seeds…", (seeds) => this._renderList(seeds))}
        ${this._renderPairForm()}
        <confirm-dialog></confirm-dialog>
      </section>
    `
  }

  private _renderList(seeds: ReadonlyArray<SeedPairing>) {
    if (seeds.length === 0) return html`<p class="muted">No seed is paired yet.</p>`
    return html`<ul class="seeds" aria-label="Paired seeds">${seeds.map((seed) => this._renderSeed(seed))}</ul>`
  }

  private _renderSeed(seed: SeedPairing) {
    const busy = this._acting.busy
    const blocked = seed.status === "blocked"
    return html`<li class="seed" aria-label=${seed.name}>
      <div class="head">
        <strong>${seed.name}</strong>
        <span class="badge" data-tone=${blocked ? "danger" : "active"}>${blocked ? "Blocked" : "Paired"}</span>
      </div>
      <code class="did">${seed.did}</code>
      <dl>
        <dt>Grants</dt><dd class="grants">${seed.grants.length === 0 ? "none" : seed.grants.join(", ")}</dd>
        <dt>Sent</dt><dd class="counts">${count(seed.beats, "beat")} · ${count(seed.acts, "act")} · ${seed.refused} refused</dd>
        <dt>Last seen</dt><dd>${seed.lastSeenAt === null ? "never" : formatDateTime(seed.lastSeenAt)}</dd>
        <dt>Last note</dt><dd class="note">${seed.lastNote ?? "—"}</dd>
        ${seed.lastError === null ? "" : html`<dt>Last refusal</dt><dd class="error">${seed.lastError}</dd>`}
      </dl>
      <form @submit=${onSubmit(({ form }) => this._saveGrants(seed, form))}>
        <fieldset>
          <legend class="label">Grants</legend>
          ${grantWords.map(
            ([grant, words]) => html`<label class="check">
            <input type="checkbox" name="grant" value=${grant} .checked=${seed.grants.includes(grant)} />
            <span>${words}</span>
          </label>`
          )}
        </fieldset>
        <div class="actions">
          <button type="submit" class="secondary" ?disabled=${busy} aria-label=${`Save the grants of ${seed.name}`}>Save grants</button>
          <button type="button" class="secondary" ?disabled=${busy} aria-label=${`${blocked ? "Unblock" : "Block"} ${seed.name}`}
            @click=${() => this._setBlocked(seed, !blocked)}>${blocked ? "Unblock" : "Block"}</button>
          <button type="button" class="danger" ?disabled=${busy} aria-label=${`Remove ${seed.name}`} @click=${() => this._remove(seed)}>Remove</button>
        </div>
      </form>
    </li>`
  }

  private _renderPairForm() {
    return html`<form class="pair" aria-label="Pair a seed" @submit=${onSubmit((submitted) => this._pair(submitted))}>
      <h3>Pair a seed</h3>
      <label>Its did <input name="did" required placeholder="did:key:z6Mk…" autocomplete="off" spellcheck="false" /></label>
      <label>Name <input name="name" required maxlength="80" /></label>
      <fieldset>
        <legend class="label">Grants (none unless ticked)</legend>
        ${grantWords.map(([grant, words]) => html`<label class="check"><input type="checkbox" name="grant" value=${grant} /> <span>${words}</span></label>`)}
      </fieldset>
      <div class="actions"><button type="submit" ?disabled=${this._acting.busy}>Pair</button></div>
    </form>`
  }

  private async _pair({ form, field }: SubmittedForm): Promise<void> {
    const name = field("name").trim()
    const done = await this._acting.run(
      (client) =>
        client.federationSeeds.pairSeed({
          payload: { did: field("did").trim() as never, name, grants: grantsOf(form) }
        }),
      (seed) => `${seed.name} is paired.`
    )
    if (done) {
      form.reset()
      await this._seeds.reload()
    }
  }

  private async _saveGrants(seed: SeedPairing, form: HTMLFormElement): Promise<void> {
    await this._acting.run(
      (client) => client.federationSeeds.updateSeed({ path: { id: seed.did }, payload: { grants: grantsOf(form) } }),
      (saved) => `${saved.name} may use ${saved.grants.length === 0 ? "nothing" : saved.grants.join(" and ")}.`
    )
    await this._seeds.reload()
  }

  private async _setBlocked(seed: SeedPairing, blocked: boolean): Promise<void> {
    await this._acting.run(
      (client) => client.federationSeeds.updateSeed({ path: { id: seed.did }, payload: { blocked } }),
      (saved) => (blocked ? `${saved.name} is blocked: everything it sends is refused.` : `${saved.name} is unblocked.`)
    )
    await this._seeds.reload()
  }

  private async _remove(seed: SeedPairing): Promise<void> {
    const sure = await this._confirm.ask({
      title: `Remove ${seed.name}?`,
      message: "Its pairing ends and everything it sends is refused. Its being, and what it stored, stay on this node.",
      confirm: "Remove"
    })
    if (!sure) return
    await this._acting.run(
      (client) => client.federationSeeds.removeSeed({ path: { id: seed.did } }),
      () => `${seed.name} is removed.`
    )
    await this._seeds.reload()
  }

  static override styles = [
    sharedStyles,
    css`
      .seeds {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-3);
      }
      .seed {
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-sm);
        padding: var(--node-space-3);
        display: grid;
        gap: var(--node-space-2);
        min-width: 0;
      }
      .head {
        display: flex;
        gap: var(--node-space-2);
        align-items: center;
        flex-wrap: wrap;
      }
      .did {
        display: block;
        white-space: normal;
        overflow-wrap: anywhere;
        word-break: break-all;
      }
      dl {
        display: grid;
        grid-template-columns: max-content 1fr;
        gap: var(--node-space-1) var(--node-space-3);
        margin: 0;
      }
      dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      fieldset {
        border: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-1);
      }
      .pair {
        display: grid;
        gap: var(--node-space-2);
        margin-top: var(--node-space-4);
      }
      .pair label {
        display: grid;
        gap: var(--node-space-1);
      }
      label.check,
      .pair label.check {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
        font-weight: normal;
      }
      label.check input {
        width: auto;
        margin: 0;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-federation-seeds": SettingsFederationSeeds
  }
}

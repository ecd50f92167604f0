/**
 * Where the being names its Muse: the name shows with a Rename button that opens a small form.
 * The name is the twin profile's preference `museName` (PATCH /api/twin/profile/preferences):
 * the Muse is the twin's voice, so it is named where the twin is described. An empty name goes
 * back to "Muse". The muse threads are titled with the name, so the place reloads them after.
 */
import { css, html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { DEFAULT_MUSE_NAME, MAX_MUSE_NAME } from "../../../extensions/threads/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("muse-name")
export class MuseName extends LitElement {
  /** The name as the node titles the muse threads now. */
  @property() accessor name = DEFAULT_MUSE_NAME

  @state() private accessor _editing = false

  private readonly _saving = new ApiAction(this)

  protected override render() {
    if (!this._editing) {
      return html`<p class="named">
        <span>Your Muse is called <strong class="name">${this.name}</strong>.</span>
        <button type="button" class="secondary" @click=${this._edit}>Rename</button>
      </p>`
    }
    return html`<form class="rename" @submit=${this._save} aria-label="Rename your Muse">
      <label>Muse name <input name="museName" .value=${this.name} maxlength=${MAX_MUSE_NAME} autocomplete="off" /></label>
      <div class="actions">
        <button type="submit" ?disabled=${this._saving.busy}>Save name</button>
        <button type="button" class="secondary" @click=${() => (this._editing = false)}>Cancel</button>
      </div>
      <node-alert .message=${this._saving.error}></node-alert>
    </form>`
  }

  private async _edit(): Promise<void> {
    this._editing = true
    await this.updateComplete
    this.renderRoot.querySelector("input")?.select()
  }

  private async _save(event: Event): Promise<void> {
    event.preventDefault()
    const name = String(new FormData(event.target as HTMLFormElement).get("museName") ?? "").trim()
    const saved = await this._saving.run((client) =>
      client.twin.patchPreferences({ payload: { museName: name === "" ? null : name } })
    )
    if (!saved) return
    this._editing = false
    fireEvent(this, "muse-renamed", { name: name === "" ? DEFAULT_MUSE_NAME : name })
  }

  static override styles = [
    sharedStyles,
    css`
      .named {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--node-space-2);
        margin: 0;
      }
      .name {
        overflow-wrap: anywhere;
      }
      .rename {
        display: flex;
        flex-wrap: wrap;
        align-items: flex-end;
        gap: var(--node-space-2);
        margin: 0;
      }
      .rename label {
        flex: 1 1 12rem;
      }
      .actions {
        display: flex;
        gap: var(--node-space-2);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "muse-name": MuseName
  }
}

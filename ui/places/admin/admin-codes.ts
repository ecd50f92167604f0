/**
 * Access codes: mint a batch (with a note saying who they are for), see every code with
 * whether it was used, delete an unused one. The node refuses deleting a used code or the
 * owner's bootstrap code and says so.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { AccessCode } from "../../../host/auth/schemas.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("admin-codes")
export class AdminCodes extends LitElement {
  @state() private accessor _codes: ReadonlyArray<AccessCode> | null = null

  @state() private accessor _minted: ReadonlyArray<AccessCode> = []

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  override connectedCallback(): void {
    super.connectedCallback()
    void this._load()
  }

  protected override render() {
    return html`
      <section class="card" aria-labelledby="codes-title">
        <h2 id="codes-title">Access codes</h2>
        <form class="mint" @submit=${this._mint}>
          <label>How many <input name="count" type="number" min="1" max="50" value="1" required /></label>
          <label>Note (who they are for) <input name="note" maxlength="200" /></label>
          <div class="actions">
            <button type="submit" ?disabled=${this._busy}>${this._busy ? "Minting…" : "Mint codes"}</button>
          </div>
        </form>
        <node-alert .message=${this._error}></node-alert>
        ${this._minted.length === 0
          ? nothing
          : html`<div class="new-codes" role="status">
              <p>New code${this._minted.length === 1 ? "" : "s"}; each works once:</p>
              <ul>
                ${this._minted.map((code) => html`<li><code>${code.code}</code></li>`)}
              </ul>
            </div>`}
        ${this._renderList()}
      </section>
    `
  }

  private _renderList() {
    const codes = this._codes
    if (codes === null) return html`<p class="muted" role="status">Loading codes…</p>`
    if (codes.length === 0) return html`<p class="muted">No codes yet.</p>`
    return html`<div class="table-wrap">
      <table class="codes">
        <thead>
          <tr>
            <th scope="col">Code</th><th scope="col">Note</th><th scope="col">Minted</th><th scope="col">State</th>
            <th scope="col"><span class="muted">Action</span></th>
          </tr>
        </thead>
        <tbody>
          ${codes.map(
            (code) => html`<tr data-code=${code.code}>
              <td><code>${code.code}</code></td>
              <td>${code.note}</td>
              <td>${formatDateTime(code.createdAt)}</td>
              <td class="state">${code.usedAt === null ? "Unused" : `Used ${formatDateTime(code.usedAt)}`}</td>
              <td>
                ${code.usedBy === null
                  ? html`<button
                      class="danger"
                      type="button"
                      ?disabled=${this._busy}
                      aria-label=${`Delete code ${code.code}`}
                      @click=${() => this._delete(code.code)}
                    >
                      Delete
                    </button>`
                  : nothing}
              </td>
            </tr>`
          )}
        </tbody>
      </table>
    </div>`
  }

  private async _load(): Promise<void> {
    const result = await request((client) => client.auth.listCodes())
    if (result.ok) this._codes = result.value
    else this._error = result.failure.message
  }

  private async _mint(event: SubmitEvent): Promise<void> {
    event.preventDefault()
    const data = new FormData(event.target as HTMLFormElement)
    const count = Number(data.get("count"))
    const note = String(data.get("note") ?? "")
    this._busy = true
    this._error = ""
    const result = await request((client) => client.auth.mintCodes({ payload: { count, note } }))
    this._busy = false
    if (result.ok) {
      this._minted = result.value
      await this._load()
    } else {
      this._error = result.failure.message
    }
  }

  private async _delete(code: string): Promise<void> {
    this._busy = true
    this._error = ""
    const result = await request((client) => client.auth.deleteCode({ path: { code } }))
    this._busy = false
    if (result.ok) this._minted = this._minted.filter((minted) => minted.code !== code)
    else this._error = result.failure.message
    await this._load()
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-codes": AdminCodes
  }
}

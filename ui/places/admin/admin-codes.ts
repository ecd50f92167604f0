/**
 * Access codes: mint a batch (with a note saying who they are for), see every code with
 * whether it was used, delete an unused one. The node refuses deleting a used code or the
 * owner's bootstrap code and says so. Deleting asks first. The newest codes first, a page at a
 * time ("Show more" asks for the next).
 */
import { html, LitElement, nothing } from "lit"
import { customElement, query, state } from "lit/decorators.js"
import type { AccessCode } from "../../../extensions/accounts/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import { actionHeading, dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import { containerStyles, inlineFormStyles, sharedStyles } from "../../styles/shared-styles.ts"

@customElement("admin-codes")
export class AdminCodes extends LitElement {
  private readonly _codes = new PagedResource<AccessCode>(this, (client, page) =>
    client.auth.listCodes({ urlParams: page })
  )

  /** Minting and deleting share one action: one change to the list at a time. */
  private readonly _change = new ApiAction(this)

  @state() private accessor _minted: ReadonlyArray<AccessCode> = []

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  protected override render() {
    const busy = this._change.busy
    return html`
      <section class="card" aria-labelledby="codes-title">
        <h2 id="codes-title">Access codes</h2>
        <form class="mint inline" @submit=${this._mint}>
          <label>How many <input name="count" type="number" min="1" max="50" value="1" required /></label>
          <label>Note (who they are for) <input name="note" maxlength="200" /></label>
          <div class="actions">
            <button type="submit" ?disabled=${busy}>${busy ? "Minting…" : "Mint codes"}</button>
          </div>
        </form>
        <node-alert .message=${this._change.error || this._codes.error}></node-alert>
        ${
          this._minted.length === 0
            ? nothing
            : html`<div class="new-codes" role="status">
              <p>New code${this._minted.length === 1 ? "" : "s"}; each works once:</p>
              <ul>
                ${this._minted.map((code) => html`<li><code>${code.code}</code></li>`)}
              </ul>
            </div>`
        }
        ${this._codes.render("Loading codes…", (codes) => this._renderList(codes))}
        ${this._codes.renderMore("codes")}
        <confirm-dialog></confirm-dialog>
      </section>
    `
  }

  private _renderList(codes: ReadonlyArray<AccessCode>) {
    if (codes.length === 0) return html`<p class="muted">No codes yet.</p>`
    return dataTable(
      ["Code", "Note", "Minted", "State", actionHeading],
      codes.map(
        (code) => html`<tr data-code=${code.code}>
          <td><code>${code.code}</code></td>
          <td>${code.note}</td>
          <td>${formatDateTime(code.createdAt)}</td>
          <td class="state">${code.usedAt === null ? "Unused" : `Used ${formatDateTime(code.usedAt)}`}</td>
          <td>
            ${
              code.usedBy === null
                ? html`<button
                  class="danger"
                  type="button"
                  ?disabled=${this._change.busy}
                  aria-label=${`Delete code ${code.code}`}
                  @click=${() => this._delete(code.code)}
                >
                  Delete
                </button>`
                : nothing
            }
          </td>
        </tr>`
      )
    )
  }

  private readonly _mint = onSubmit(async ({ field }) => {
    const payload = { count: Number(field("count")), note: field("note") }
    const minted = await this._change.run(
      (client) => client.auth.mintCodes({ payload }),
      (codes) => {
        this._minted = codes
      }
    )
    if (minted) await this._codes.reload()
  })

  private async _delete(code: string): Promise<void> {
    const sure = await this._confirm.ask({
      title: `Delete code ${code}?`,
      message: "Nobody can register with it any more. A deleted code cannot be brought back.",
      confirm: "Delete the code"
    })
    if (!sure) return
    await this._change.run(
      (client) => client.auth.deleteCode({ path: { code } }),
      () => {
        this._minted = this._minted.filter((minted) => minted.code !== code)
      }
    )
    // Also after a refusal: the code may have been used meanwhile, and the list should say so.
    await this._codes.reload()
  }

  static override styles = [sharedStyles, containerStyles, inlineFormStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-codes": AdminCodes
  }
}

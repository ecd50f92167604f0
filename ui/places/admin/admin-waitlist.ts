/** The waitlist as the owner reads it (oldest first, a page at a time), and the whole list as a CSV download. */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { WaitlistRow as WaitlistRowSchema } from "../../../extensions/accounts/contract/records.ts"
import { dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

type WaitlistRow = typeof WaitlistRowSchema.Type

@customElement("admin-waitlist")
export class AdminWaitlist extends LitElement {
  private readonly _rows = new PagedResource<WaitlistRow>(this, (client, page) =>
    client.auth.listWaitlist({ urlParams: page })
  )

  protected override render() {
    return html`
      <section class="card" aria-labelledby="waitlist-title">
        <h2 id="waitlist-title">Waitlist</h2>
        <p class="muted">Nobody is promoted automatically: mint a code for whoever you want to let in.</p>
        <node-alert .message=${this._rows.error}></node-alert>
        ${this._rows.render("Loading the waitlist…", (rows) => this._renderRows(rows))}
        ${this._rows.renderMore("entries")}
        <p><a class="button secondary" href="/api/auth/waitlist.csv" download="waitlist.csv">Download CSV</a></p>
      </section>
    `
  }

  private _renderRows(rows: ReadonlyArray<WaitlistRow>) {
    if (rows.length === 0) return html`<p class="muted">Nobody is on the waitlist.</p>`
    return dataTable(
      ["Email", "Name", "Why", "Joined"],
      rows.map(
        (row) => html`<tr>
          <td>${row.email}</td>
          <td>${row.name}</td>
          <td>${row.why}</td>
          <td>${formatDateTime(row.createdAt)}</td>
        </tr>`
      )
    )
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-waitlist": AdminWaitlist
  }
}

/** The waitlist as the owner reads it, and the same list as a CSV download. */
import { html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { WaitlistRow as WaitlistRowSchema } from "../../../host/auth/schemas.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

type WaitlistRow = typeof WaitlistRowSchema.Type

@customElement("admin-waitlist")
export class AdminWaitlist extends LitElement {
  @state() private accessor _rows: ReadonlyArray<WaitlistRow> | null = null

  @state() private accessor _error = ""

  override connectedCallback(): void {
    super.connectedCallback()
    void this._load()
  }

  protected override render() {
    const rows = this._rows
    return html`
      <section class="card" aria-labelledby="waitlist-title">
        <h2 id="waitlist-title">Waitlist</h2>
        <p class="muted">Nobody is promoted automatically: mint a code for whoever you want to let in.</p>
        <node-alert .message=${this._error}></node-alert>
        ${rows === null
          ? html`<p class="muted" role="status">Loading the waitlist…</p>`
          : rows.length === 0
            ? html`<p class="muted">Nobody is on the waitlist.</p>`
            : html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr><th scope="col">Email</th><th scope="col">Name</th><th scope="col">Why</th><th scope="col">Joined</th></tr>
                  </thead>
                  <tbody>
                    ${rows.map(
                      (row) => html`<tr>
                        <td>${row.email}</td>
                        <td>${row.name}</td>
                        <td>${row.why}</td>
                        <td>${formatDateTime(row.createdAt)}</td>
                      </tr>`
                    )}
                  </tbody>
                </table>
              </div>`}
        <p><a class="button secondary" href="/api/auth/waitlist.csv" download="waitlist.csv">Download CSV</a></p>
      </section>
    `
  }

  private async _load(): Promise<void> {
    const result = await request((client) => client.auth.listWaitlist())
    if (result.ok) this._rows = result.value
    else this._error = result.failure.message
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "admin-waitlist": AdminWaitlist
  }
}

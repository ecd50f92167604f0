/**
 * The twin's status: whether models are configured, how much it holds (memories, files,
 * activity, connections), each connection provider (configured on this server, connected by
 * you) and the coverage of search by meaning, with the sentence about text leaving the host
 * when it may.
 */
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { TwinStatus } from "../../../extensions/twin/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { dataTable } from "../../components/data-table.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./twin-coverage.ts"

@customElement("twin-status")
export class TwinStatusCard extends LitElement {
  private readonly _status = new ApiResource(this, (client) => client.twin.status())

  protected override render() {
    return html`<section class="card" aria-labelledby="status-title">
      <h2 id="status-title">Status</h2>
      <node-alert .message=${this._status.error}></node-alert>
      ${this._status.render("Loading the status…", (status) => this._renderStatus(status))}
    </section>`
  }

  private _renderStatus(status: TwinStatus) {
    const counts = [
      ["Memories", status.counts.memories],
      ["Files", status.counts.files],
      ["Activity", status.counts.activity],
      ["Connections", status.counts.connections]
    ] as const
    return html`
      <p>${status.llm.configured ? "Models are configured: the twin can learn and reflect." : "No model is configured: the twin cannot learn or reflect yet."}</p>
      <dl class="counts">
        ${counts.map(([label, count]) => html`<div><dt class="muted">${label}</dt><dd>${count}</dd></div>`)}
      </dl>
      <h3>Search by meaning</h3>
      <twin-coverage .embeddings=${status.embeddings}></twin-coverage>
      <h3>Providers</h3>
      ${
        status.providers.length === 0
          ? html`<p class="muted">No connection providers on this node yet.</p>`
          : dataTable(
              ["Provider", "On this server", "Connected", "Last sync"],
              status.providers.map(
                (provider) => html`<tr>
                <td>${provider.title || provider.provider}${provider.hint === null ? "" : html`<br /><span class="muted">${provider.hint}</span>`}</td>
                <td>${provider.configured ? "Configured" : "Not configured"}</td>
                <td>${provider.connected ? `Connected${provider.label === "" ? "" : ` (${provider.label})`}` : "Not connected"}</td>
                <td>${provider.lastSyncAt === null ? "Never" : formatDateTime(provider.lastSyncAt)}</td>
              </tr>`
              )
            )
      }
    `
  }

  static override styles = [
    sharedStyles,
    css`
      .counts {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(5rem, 1fr));
        gap: var(--node-space-3);
        margin: 0 0 var(--node-space-4);
      }
      .counts dt {
        font-size: var(--node-font-size-sm);
      }
      .counts dd {
        margin: 0;
        font-size: var(--node-font-size-xl);
        font-weight: var(--node-font-weight-bold);
      }
      h3 {
        margin-top: var(--node-space-4);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-status": TwinStatusCard
  }
}

/**
 * Settings → Federation (the owner's): this node's did and what it runs, the owner's own did,
 * the peers (settings-federation-peers.ts), the directory's status with its "register now" and
 * "add a peer by handle", and the courier's flush with what its run did. The relay and the seeds have sections of their
 * own, placed here.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, query } from "lit/decorators.js"
import type { DirectoryStatus, FlushResult } from "../../../extensions/federation/contract/records.ts"
import type { SignedCapabilityProfile } from "../../../extensions/federation/contract/wire.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { dataTable } from "../../components/data-table.ts"
import "../../components/did-copy.ts"
import { formatDateTime } from "../../components/format.ts"
import { onSubmit } from "../../components/on-submit.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./settings-federation-peers.ts"
import "./settings-federation-relay.ts"
import "./settings-federation-seeds.ts"

@customElement("settings-federation")
export class SettingsFederation extends LitElement {
  private readonly _profile = new ApiResource(this, (client) => client.federationWire.capabilities())

  private readonly _me = new ApiResource(this, (client) => client.federation.me())

  private readonly _directory = new ApiResource(this, (client) => client.federation.directoryStatus())

  private readonly _flushing = new ApiAction(this)

  private readonly _directing = new ApiAction(this)

  @query("settings-federation-peers") private accessor _peers!: HTMLElementTagNameMap["settings-federation-peers"]

  private _lastRun: FlushResult | null = null

  protected override render() {
    return html`
      <section class="card" aria-labelledby="federation-node-title">
        <h2 id="federation-node-title">This node</h2>
        <node-alert .message=${this._profile.error || this._me.error}></node-alert>
        ${this._profile.render("Loading this node's profile…", (profile) => this._renderProfile(profile))}
        ${this._me.render(
          "Loading your did…",
          (me) => html`<p>Your own did (what another node's owner needs to talk to you):
          <did-copy label="your did" .did=${me.did}></did-copy></p>`
        )}
      </section>
      <settings-federation-peers></settings-federation-peers>
      <section class="card" aria-labelledby="federation-courier-title">
        <h2 id="federation-courier-title">Courier</h2>
        <p class="muted">The courier sends what waits every 30 seconds; flush sends it now, puts stuck messages back in the queue and collects from every verified peer.</p>
        <node-alert .message=${this._flushing.error}></node-alert>
        <div class="actions"><button type="button" ?disabled=${this._flushing.busy} @click=${this._flush}>Flush now</button></div>
        ${this._lastRun === null ? nothing : this._renderRun(this._lastRun)}
      </section>
      <section class="card" aria-labelledby="federation-directory-title">
        <h2 id="federation-directory-title">Directory</h2>
        <node-alert .message=${this._directory.error || this._directing.error}></node-alert>
        <node-alert kind="success" .message=${this._directing.notice}></node-alert>
        ${this._directory.render("Loading the directory's status…", (status) => this._renderDirectory(status))}
      </section>
      <settings-federation-relay></settings-federation-relay>
      <settings-federation-seeds></settings-federation-seeds>
    `
  }

  private _renderProfile(profile: SignedCapabilityProfile) {
    const { did, runs, limits, delegatesTo } = profile.payload
    return html`
      <p>This node's did: <did-copy label="this node's did" .did=${did}></did-copy></p>
      ${dataTable(
        ["Runs", "Path", "Protocol"],
        runs.map(
          (facility) => html`<tr class="facility">
        <td>${facility.name}</td><td><code>${facility.path}</code></td><td>${facility.protocol}</td>
      </tr>`
        )
      )}
      <p class="muted limits">Largest document read: ${limits.maxDocumentBytes} bytes · queued for others: at most ${limits.maxQueued}
        · relay: ${delegatesTo ?? "none"}</p>
    `
  }

  private _renderRun(run: FlushResult) {
    return html`<p class="flush-run" role="status">
      At ${formatDateTime(run.at)}: ${run.attempted} attempted, ${run.delivered} delivered, ${run.unreachable} unreachable,
      ${run.refused} refused; ${run.requeued} requeued, ${run.collected} collected, ${run.relayed} relayed.
    </p>`
  }

  private _renderDirectory(status: DirectoryStatus) {
    if (!status.configured) {
      return html`<p class="directory-state">No directory is set (the <code>DIRECTORY_ENDPOINT</code> setting), so this node is listed nowhere: peers find it by its did and address.</p>`
    }
    return html`<p class="directory-state">Directory: <code>${status.endpoint}</code> ·
      ${status.registered ? `registered${status.registeredAt === null ? "" : ` ${formatDateTime(status.registeredAt)}`}` : "not registered"}
      ${status.directoryDid === null ? nothing : html` · its did (pinned) <code>${status.directoryDid}</code>`}</p>
      ${
        status.registered
          ? html`<p class="directory-listing">Listed as ${status.handles.length === 0 ? "no handle" : status.handles.join(", ")}
        at <code>${status.advertisedEndpoint}</code> until ${formatDateTime(status.expiresAt!)} · credits claimed: ${status.creditsClaimed}</p>`
          : nothing
      }
      ${status.lastError === null ? nothing : html`<p class="muted directory-error">${status.lastError}</p>`}
      <div class="actions"><button type="button" ?disabled=${this._directing.busy} @click=${this._register}>Register now</button></div>
      <form class="add-by-handle" @submit=${onSubmit(({ form, field }) => this._addByHandle(form, field("handle").trim()))}>
        <h3>Add a peer by handle</h3>
        <label>Handle <input name="handle" required maxlength="80" autocomplete="off" placeholder="their handle" /></label>
        <div class="actions"><button type="submit" ?disabled=${this._directing.busy}>Find and add</button></div>
      </form>`
  }

  private readonly _register = async (): Promise<void> => {
    await this._directing.run(
      (client) => client.federation.directoryRegister(),
      (status) => (status.lastError === null ? "Registered." : `Not registered: ${status.lastError}`)
    )
    await this._directory.reload()
  }

  private async _addByHandle(form: HTMLFormElement, handle: string): Promise<void> {
    const added = await this._directing.run(
      (client) => client.federation.addPeerByHandle({ payload: { handle } }),
      (session) =>
        session.verified
          ? `${session.peer.name} is added and verified.`
          : `${session.peer.name} is added: ${session.reason}`
    )
    if (added) form.reset()
    await this._peers.reload()
  }

  private readonly _flush = (): Promise<boolean> =>
    this._flushing.run(
      (client) => client.federation.flush(),
      (run) => {
        this._lastRun = run
      }
    )

  // A did or an address is one long word: it wraps anywhere rather than widen a phone's page.
  static override styles = [
    sharedStyles,
    css`.directory-state code, .directory-listing code, .directory-error { overflow-wrap: anywhere; word-break: break-all; white-space: normal; }`
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-federation": SettingsFederation
  }
}

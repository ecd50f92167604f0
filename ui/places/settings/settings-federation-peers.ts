/**
 * The owner's peers: add one by its did and address (the handshake runs at once: the answer
 * says whether it was verified), each with its status and last error, greet it again, edit its
 * address, name, relay, whether this node's square posts go to it, block or unblock it, and
 * remove it (its conversations stay: the answer says how many lose their courier). The oldest
 * peers first, a page at a time ("Show more" asks for the next).
 */
import { html, LitElement, nothing } from "lit"
import { customElement, query, state } from "lit/decorators.js"
import type { Peer, PeerUpdate } from "../../../extensions/federation/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import { actionHeading, dataTable } from "../../components/data-table.ts"
import "../../components/did-copy.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const statusWords: Record<Peer["status"], string> = {
  unverified: "Unverified",
  verified: "Verified",
  unreachable: "Unreachable",
  refused: "Refused",
  blocked: "Blocked"
}

@customElement("settings-federation-peers")
export class SettingsFederationPeers extends LitElement {
  private readonly _peers = new PagedResource<Peer>(this, (client, page) =>
    client.federation.listPeers({ urlParams: page })
  )

  private readonly _acting = new ApiAction(this)

  /** The peer whose edit form is open, by did. */
  @state() private accessor _editing: string | null = null

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  protected override render() {
    return html`
      <section class="card" aria-labelledby="federation-peers-title">
        <h2 id="federation-peers-title">Peers</h2>
        <p class="muted">Nodes you talk with. Add one with the did and address its owner gave you.</p>
        <node-alert .message=${this._acting.error || this._peers.error}></node-alert>
        <node-alert kind="success" .message=${this._acting.notice}></node-alert>
        ${this._peers.render("Loading peers…", (peers) => this._renderList(peers))}
        ${this._peers.renderMore("peers")}
        <form class="add-peer" @submit=${onSubmit(({ form, field }) => this._add(form, field))}>
          <h3>Add a peer</h3>
          <label>Node did <input name="nodeDid" required placeholder="did:key:z6Mk…" autocomplete="off" /></label>
          <label>Address <input name="endpoint" type="url" required placeholder="https://node.example" /></label>
          <label>Name <input name="name" maxlength="80" placeholder="Optional" /></label>
          <div class="actions"><button type="submit" ?disabled=${this._acting.busy}>Add peer</button></div>
        </form>
        <confirm-dialog></confirm-dialog>
      </section>
    `
  }

  private _renderList(peers: ReadonlyArray<Peer>) {
    if (peers.length === 0) return html`<p class="muted">No peers yet.</p>`
    const busy = this._acting.busy
    return dataTable(
      ["Peer", "Status", "Square posts", actionHeading],
      peers.map(
        (peer) => html`<tr class="peer" data-did=${peer.nodeDid}>
        <td>
          <strong>${peer.name}</strong> <span class="muted">${peer.endpoint}</span><br />
          <did-copy label=${`${peer.name}'s did`} .did=${peer.nodeDid}></did-copy>
          ${peer.relay === null ? nothing : html`<br /><span class="muted">Relay: ${peer.relay}</span>`}
        </td>
        <td>
          <span class="badge peer-status" data-tone=${peer.status === "verified" ? "good" : "active"}>${statusWords[peer.status]}</span>
          ${peer.lastSeenAt === null ? nothing : html`<br /><span class="muted">Seen ${formatDateTime(peer.lastSeenAt)}</span>`}
          ${peer.lastError === null ? nothing : html`<br /><span class="last-error">${peer.lastError}</span>`}
        </td>
        <td>
          <label><input type="checkbox" .checked=${peer.publish} ?disabled=${busy || peer.status === "blocked"}
            @change=${(event: Event) => this._update(peer, { publish: (event.target as HTMLInputElement).checked })} /> Publish to it</label>
        </td>
        <td class="actions">
          <button type="button" class="secondary" ?disabled=${busy} aria-label=${`Greet ${peer.name}`} @click=${() => this._greet(peer)}>Greet</button>
          <button type="button" class="secondary" ?disabled=${busy} aria-label=${`Edit ${peer.name}`} @click=${() => {
            this._editing = this._editing === peer.nodeDid ? null : peer.nodeDid
          }}>Edit</button>
          <button type="button" class="secondary" ?disabled=${busy} aria-label=${`${peer.status === "blocked" ? "Unblock" : "Block"} ${peer.name}`}
            @click=${() => this._update(peer, { blocked: peer.status !== "blocked" })}>${peer.status === "blocked" ? "Unblock" : "Block"}</button>
          <button type="button" class="danger" ?disabled=${busy} aria-label=${`Remove ${peer.name}`} @click=${() => this._remove(peer)}>Remove</button>
        </td>
      </tr>
      ${this._editing === peer.nodeDid ? this._renderEdit(peer) : nothing}`
      )
    )
  }

  private _renderEdit(peer: Peer) {
    return html`<tr class="edit-peer"><td colspan="4">
      <form @submit=${onSubmit(({ field }) =>
        this._update(
          peer,
          {
            endpoint: field("endpoint"),
            name: field("name"),
            relay: field("relay") === "" ? null : field("relay")
          },
          true
        )
      )}>
        <label>Address <input name="endpoint" type="url" required .value=${peer.endpoint} /></label>
        <label>Name <input name="name" required maxlength="80" .value=${peer.name} /></label>
        <label>Relay (where to leave mail for it) <input name="relay" type="url" .value=${peer.relay ?? ""} placeholder="None" /></label>
        <div class="actions"><button type="submit" ?disabled=${this._acting.busy}>Save ${peer.name}</button></div>
      </form>
    </td></tr>`
  }

  /** Reads the list again (the directory section adds peers by handle). */
  reload(): Promise<void> {
    return this._peers.reload()
  }

  private async _add(form: HTMLFormElement, field: (name: string) => string): Promise<void> {
    const name = field("name").trim()
    const added = await this._acting.run(
      (client) =>
        client.federation.addPeer({
          payload: {
            nodeDid: field("nodeDid").trim() as never,
            endpoint: field("endpoint").trim(),
            ...(name === "" ? {} : { name })
          }
        }),
      (session) =>
        session.verified
          ? `${session.peer.name} is added and verified.`
          : `${session.peer.name} is added, ${statusWords[session.peer.status].toLowerCase()}: ${session.reason}`
    )
    if (added) form.reset()
    await this._peers.reload()
  }

  private async _greet(peer: Peer): Promise<void> {
    await this._acting.run(
      (client) => client.federation.greetPeer({ path: { id: peer.nodeDid } }),
      (session) => (session.verified ? `${peer.name} answered: verified.` : `${peer.name}: ${session.reason}`)
    )
    await this._peers.reload()
  }

  private async _update(peer: Peer, change: PeerUpdate, closeEdit = false): Promise<void> {
    const saved = await this._acting.run(
      (client) => client.federation.updatePeer({ path: { id: peer.nodeDid }, payload: change }),
      (next) => `${next.name}: saved.`
    )
    if (saved && closeEdit) this._editing = null
    await this._peers.reload()
  }

  private async _remove(peer: Peer): Promise<void> {
    const sure = await this._confirm.ask({
      title: `Remove ${peer.name}?`,
      message:
        "Nothing more is sent to it or taken from it. Your conversations with its beings stay, with what they hold.",
      confirm: "Remove the peer"
    })
    if (!sure) return
    await this._acting.run(
      (client) => client.federation.removePeer({ path: { id: peer.nodeDid } }),
      ({ threadsAffected }) =>
        `${peer.name} is removed; ${threadsAffected} conversation${threadsAffected === 1 ? "" : "s"} no longer reach${threadsAffected === 1 ? "es" : ""} it.`
    )
    await this._peers.reload()
  }

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-federation-peers": SettingsFederationPeers
  }
}

/**
 * What a federated conversation's open thread adds: who is on the other side (the petname you
 * gave, the handle their node vouches for, their did, the peer node they are on) and where each
 * message came from or stands: sealed or in the clear, verified, and for what you sent whether it
 * is queued, delivered or stuck. Loaded with the thread and again when it changes (the courier's
 * own runs send no event, hence the refresh button).
 */
import { css, html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { FederatedThread, MessageProvenance } from "../../../extensions/federation/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/did-copy.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { LiveEvents } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const stateWords: Record<MessageProvenance["state"], string> = {
  queued: "Queued",
  sending: "Handed over",
  delivered: "Delivered",
  refused: "Refused",
  stuck: "Stuck",
  received: "Received"
}

@customElement("federated-thread")
export class FederatedThreadPanel extends LitElement {
  @property() accessor threadId = ""

  private readonly _thread = new ApiResource(this, (client) =>
    client.federation.federatedThread({ path: { id: this.threadId } })
  )

  private readonly _events = new LiveEvents(this, {
    "thread.updated": (event) => {
      if (event.thread.id === this.threadId) void this._thread.reload()
    }
  })

  protected override updated(changed: PropertyValues<this>) {
    if (changed.has("threadId") && changed.get("threadId") !== undefined) void this._thread.reload()
  }

  protected override render() {
    return html`<node-alert .message=${this._thread.error}></node-alert>
      ${this._thread.render("Loading where this conversation goes…", (thread) => this._renderThread(thread))}`
  }

  private _renderThread({ conversation, messages }: FederatedThread) {
    const who = conversation.petname ?? conversation.remoteHandle ?? "A being"
    const recent = messages.slice(-8).reverse()
    return html`<div class="provenance">
      <p class="remote">
        <strong>${who}</strong>${conversation.remoteHandle === null ? nothing : html` <span class="muted">@${conversation.remoteHandle}</span>`}
        on <strong>${conversation.peerName ?? "a removed peer"}</strong>${conversation.remoteCurrent ? nothing : html` <span class="badge">Cannot be reached</span>`}
        <br /><did-copy label=${`${who}'s did`} .did=${conversation.remoteDid}></did-copy>
      </p>
      ${conversation.stuck > 0 ? html`<p class="stuck">${conversation.stuck} message${conversation.stuck === 1 ? " is" : "s are"} stuck: flush the courier in Settings → Federation to try again.</p>` : nothing}
      ${
        recent.length === 0
          ? nothing
          : html`<ul class="wire" aria-label="Where the latest messages stand">
        ${recent.map(
          (message) => html`<li data-message-id=${message.messageId} data-state=${message.state}>
          <span>${message.direction === "out" ? "You sent" : `${who} sent`} · ${formatDateTime(message.at)}</span>
          <span class="badge message-state" data-tone=${message.state === "delivered" || message.state === "received" ? "good" : "active"}>${stateWords[message.state]}</span>
          <span class="muted">${message.sealed ? "sealed" : "in the clear"}${message.verified ? " · signature verified" : ""}</span>
        </li>`
        )}
      </ul>`
      }
      <button type="button" class="secondary" @click=${() => void this._thread.reload()}>Refresh</button>
    </div>`
  }

  static override styles = [
    sharedStyles,
    css`
    .provenance { margin: 0 0 var(--node-space-3); font-size: var(--node-font-size-sm); }
    .wire { list-style: none; margin: 0 0 var(--node-space-2); padding: 0; display: flex; flex-direction: column; gap: 2px; }
    .wire li { display: flex; flex-wrap: wrap; gap: var(--node-space-2); align-items: center; }
  `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "federated-thread": FederatedThreadPanel
  }
}

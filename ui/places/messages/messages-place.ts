/**
 * Messages, at `/messages`: the inbox across kinds (the Muse, direct conversations with other
 * beings, agents' threads) beside the open one (`?thread=`). A direct conversation is started by
 * picking a being (GET /api/beings); a thread is left after a confirmation (the other being
 * keeps it). The list shows the newest threads a page at a time ("Show more" asks for the next);
 * it is loaded at the live channel's hello and again at each `thread.updated`, which the node
 * sends to every being in a thread when something is written in it, so a new message shows here
 * without the thread being open. The open thread is read by its id when it is older than the
 * pages shown (open-thread.ts). On a phone the list and the open thread
 * take the screen in turn. The owner also talks with beings on peer nodes: such a conversation's
 * local half is an ordinary direct thread, marked in the inbox with the peer, started here by
 * the peer and the remote being's did, and shown with where its messages stand
 * (federated-thread.ts).
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { FederatedConversation, Peer } from "../../../extensions/federation/contract/records.ts"
import type { PublicBeing } from "../../../extensions/souls/contract/records.ts"
import type { Thread } from "../../../extensions/threads/contract/records.ts"
import { request } from "../../api/client.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import "../../components/node-alert.ts"
import { OpenThread } from "../../components/open-thread.ts"
import { readUpTo } from "../../../kernel/contract/page.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import "../../components/thread-conversation.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { navigate } from "../../shell/router.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./federated-thread.ts"
import { inboxList, inboxStyles } from "./messages-inbox.ts"

@customElement("messages-place")
export class MessagesPlace extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  /** The `thread` query parameter: the open thread, or "" for none. */
  @property() accessor threadId = ""

  /** The inbox, newest activity first, a page at a time; loaded at the live channel's hello. */
  private readonly _threads = new PagedResource<Thread>(
    this,
    (client, page) => client.threads.listThreads({ urlParams: page }),
    { loadOnConnect: false }
  )

  private readonly _open = new OpenThread(this, () => this.threadId)

  @state() private accessor _beings: ReadonlyArray<PublicBeing> = []

  /** The owner's federated conversations, every one, by their thread's id (none for anyone else). */
  @state() private accessor _federated: ReadonlyMap<string, FederatedConversation> = new Map()

  @state() private accessor _peers: ReadonlyArray<Peer> = []

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  private readonly _acting = new ApiAction(this)

  private readonly _load = new LiveLoad(this, () => void this._loadAll())

  /** The list is read again (as many threads as are shown, from the top) so a thread moves to where it now is. */
  private readonly _events = new LiveEvents(this, {
    "thread.updated": (event) => {
      this._open.take(event.thread)
      void this._threads.reload()
    }
  })

  protected override render() {
    const open = this._open.of(this._threads.value)
    return html`
      <h1 tabindex="-1">Messages</h1>
      <node-alert .message=${this._threads.error || this._open.error || this._acting.error}></node-alert>
      <div class="layout" data-open=${open === null ? "none" : "thread"}>
        <section class="card list" aria-labelledby="inbox-title">
          <h2 id="inbox-title">Inbox</h2>
          ${this._renderStart()}
          ${this._threads.render("Loading conversations…", (threads) => inboxList(threads, open?.id ?? "", this._federated))}
          ${this._threads.renderMore("conversations")}
        </section>
        <section class="card open" aria-label=${open === null ? "No conversation open" : `Conversation with ${open.title}`}>
          ${open === null ? this._renderNone() : this._renderOpen(open)}
        </section>
      </div>
      <confirm-dialog></confirm-dialog>
    `
  }

  private _renderStart() {
    return html`${this._renderStartLocal()}${this._renderStartFederated()}`
  }

  /** The owner writes to a being on a peer node: the peer, the did its owner gave, a name to know it by. */
  private _renderStartFederated() {
    if (this._peers.length === 0) return nothing
    return html`<details class="start-federated">
      <summary>Write to someone on another node</summary>
      <form class="start" @submit=${this._startFederated} aria-label="Start a conversation on another node">
        <label>Their node
          <select name="peerDid" required>
            ${this._peers.map((peer) => html`<option value=${peer.nodeDid}>${peer.name}</option>`)}
          </select>
        </label>
        <label>Their did <input name="remoteDid" required autocomplete="off" placeholder="did:key:z6Mk…" /></label>
        <label>Call them <input name="petname" maxlength="80" placeholder="A name for you" /></label>
        <button type="submit" ?disabled=${this._acting.busy}>Start</button>
      </form>
    </details>`
  }

  private _renderStartLocal() {
    const others = this._beings.filter((being) => being.id !== this.being?.id)
    if (others.length === 0) return nothing
    return html`<form class="start" @submit=${this._start} aria-label="Start a conversation">
      <label>Write to
        <select name="withBeingId" required>
          ${others.map((being) => html`<option value=${being.id}>${being.displayName} (@${being.handle})</option>`)}
        </select>
      </label>
      <button type="submit" ?disabled=${this._acting.busy}>Start</button>
    </form>`
  }

  private _renderNone() {
    if (this.threadId === "") return html`<p class="muted">Open a conversation from the inbox, or start one.</p>`
    if (this._open.missing) {
      return html`<p class="muted">That conversation is not among yours (it may have been left). <a href="/messages">Back to the inbox</a></p>`
    }
    return this._open.error === "" ? html`<p class="muted" role="status">Opening the conversation…</p>` : nothing
  }

  private _renderOpen(thread: Thread) {
    return html`<div class="open-head">
        <a class="back-link" href="/messages">← Inbox</a>
        <h2>${thread.title}</h2>
        <button type="button" class="danger" ?disabled=${this._acting.busy} @click=${() => this._leave(thread)}>Leave</button>
      </div>
      ${this._federated.has(thread.id) ? html`<federated-thread .threadId=${thread.id}></federated-thread>` : nothing}
      <thread-conversation .thread=${thread} .selfId=${this.being?.id ?? ""}></thread-conversation>`
  }

  private async _loadAll(): Promise<void> {
    const [beings] = await Promise.all([request((client) => client.beings.listBeings()), this._threads.reload()])
    // Without the list of beings the inbox still works; only starting a conversation waits.
    if (beings.ok) this._beings = beings.value
    await this._loadFederated()
  }

  /**
   * The federation is the owner's: anyone else has no federated conversations to mark. Every conversation is read
   * (a thread on any page may be one), and every peer (any may be written to).
   */
  private async _loadFederated(): Promise<void> {
    if (this.being?.isOwner !== true) return
    const [conversations, peers] = await Promise.all([
      request((client) => readUpTo(Infinity, (page) => client.federation.listConversations({ urlParams: page }))),
      request((client) => readUpTo(Infinity, (page) => client.federation.listPeers({ urlParams: page })))
    ])
    if (conversations.ok)
      this._federated = new Map(conversations.value.map((conversation) => [conversation.threadId, conversation]))
    if (peers.ok) this._peers = peers.value.filter((peer) => peer.status !== "blocked")
  }

  private readonly _startFederated = async (event: Event): Promise<void> => {
    event.preventDefault()
    const form = new FormData(event.target as HTMLFormElement)
    const field = (name: string) => String(form.get(name) ?? "").trim()
    const petname = field("petname")
    const payload = {
      peerDid: field("peerDid") as never,
      remoteDid: field("remoteDid") as never,
      ...(petname === "" ? {} : { petname })
    }
    let opened: FederatedConversation | null = null
    await this._acting.run(
      (client) => client.federation.openConversation({ payload }),
      (conversation) => {
        opened = conversation
      }
    )
    if (opened === null) return
    const { threadId } = opened as FederatedConversation
    await this._loadAll()
    navigate(`/messages?thread=${encodeURIComponent(threadId)}`)
  }

  private async _start(event: Event): Promise<void> {
    event.preventDefault()
    const withBeingId = String(new FormData(event.target as HTMLFormElement).get("withBeingId") ?? "")
    if (withBeingId === "") return
    const started = await this._acting.run(
      (client) => client.threads.openThread({ payload: { kind: "direct", withBeingId } }),
      (thread) => navigate(`/messages?thread=${encodeURIComponent(thread.id)}`)
    )
    if (started) await this._threads.reload()
  }

  private async _leave(thread: Thread): Promise<void> {
    const sure = await this._confirm.ask({
      title: `Leave the conversation with ${thread.title}?`,
      message:
        thread.kind === "direct"
          ? "It goes from your inbox. The other being keeps it; writing to them again starts a new conversation."
          : "It goes from your inbox with its messages.",
      confirm: "Leave"
    })
    if (!sure) return
    const left = await this._acting.run((client) => client.threads.deleteThread({ path: { id: thread.id } }))
    if (!left) return
    navigate("/messages")
    await this._threads.reload()
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    inboxStyles,
    css`
      .layout {
        display: grid;
        grid-template-columns: minmax(14rem, 22rem) minmax(0, 1fr);
        gap: var(--node-space-4);
        align-items: start;
      }
      .card {
        min-width: 0;
        margin: 0;
      }
      .start {
        display: flex;
        flex-wrap: wrap;
        align-items: flex-end;
        gap: var(--node-space-2);
        margin: 0 0 var(--node-space-3);
      }
      .start label {
        flex: 1 1 10rem;
        min-width: 0;
      }
      .start select,
      .start input {
        width: 100%;
      }
      .start-federated {
        margin: 0 0 var(--node-space-3);
      }
      .open-head {
        display: flex;
        align-items: center;
        gap: var(--node-space-3);
        margin: 0 0 var(--node-space-3);
        min-width: 0;
      }
      .open-head h2 {
        flex: 1 1 auto;
        margin: 0;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .back-link {
        display: none;
      }
      /* A phone: the inbox, or the open conversation with a way back. */
      @container (max-width: 44rem) {
        .layout {
          grid-template-columns: minmax(0, 1fr);
        }
        .layout[data-open="thread"] .list,
        .layout[data-open="none"] .open {
          display: none;
        }
        .back-link {
          display: inline;
        }
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "messages-place": MessagesPlace
  }
}

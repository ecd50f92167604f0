/**
 * The inbox's list: every thread of the being, newest activity first, each a link that opens it
 * (`/messages?thread=<id>`) with its kind, who answers in it (its replyPolicy: an agent's thread
 * is read-only) and how it ends so far. A federated conversation's thread says so, with the
 * peer node the other being is on and how many of your messages wait or are stuck.
 */
import { css, html } from "lit"
import type { FederatedConversation } from "../../../extensions/federation/contract/records.ts"
import type { ReplyPolicy, Thread, ThreadKind } from "../../../extensions/threads/contract/records.ts"
import { formatDateTime } from "../../components/format.ts"

const kindWords: Record<ThreadKind, string> = { muse: "Muse", direct: "Direct", agent: "Agent", imported: "Imported" }

const policyWords: Record<ReplyPolicy, string> = {
  muse: "The Muse answers",
  being: "Answered in person",
  none: "Read-only"
}

const federatedLine = (conversation: FederatedConversation) =>
  html`<span class="line small muted federated">
    <span>via ${conversation.peerName ?? "a removed peer"}</span>
    ${conversation.stuck > 0 ? html`<span>${conversation.stuck} stuck</span>` : conversation.queued > 0 ? html`<span>${conversation.queued} queued</span>` : ""}
  </span>`

export const inboxList = (
  threads: ReadonlyArray<Thread>,
  openId: string,
  federated: ReadonlyMap<string, FederatedConversation> = new Map()
) =>
  html`<ul class="inbox" aria-label="Conversations">
    ${threads.map(
      (thread) => html`<li>
      <a href=${`/messages?thread=${encodeURIComponent(thread.id)}`} aria-current=${thread.id === openId ? "page" : "false"} data-thread-id=${thread.id}>
        <span class="line">
          <span class="title">${thread.title}</span>
          <span class="badge" data-tone=${thread.kind === "muse" ? "active" : ""}>${federated.has(thread.id) ? "Federated" : kindWords[thread.kind]}</span>
        </span>
        ${federated.has(thread.id) ? federatedLine(federated.get(thread.id)!) : ""}
        <span class="preview muted">${thread.preview ?? "No messages yet"}</span>
        <span class="line small muted">
          <span class="policy" data-policy=${thread.replyPolicy}>${policyWords[thread.replyPolicy]}</span>
          <time datetime=${thread.lastMessageAt ?? thread.createdAt}>${formatDateTime(thread.lastMessageAt ?? thread.createdAt)}</time>
        </span>
      </a>
    </li>`
    )}
  </ul>`

export const inboxStyles = css`
  .inbox {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: 2px;
  }
  .inbox a {
    display: flex;
    flex-direction: column;
    gap: 2px;
    padding: var(--node-space-2) var(--node-space-3);
    border-radius: var(--node-radius-sm);
    color: var(--node-text);
    text-decoration: none;
    min-width: 0;
  }
  .inbox a:hover {
    background: var(--node-surface-raised);
  }
  .inbox a[aria-current="page"] {
    background: var(--node-accent-soft);
    color: var(--node-accent-soft-text);
  }
  .line {
    display: flex;
    justify-content: space-between;
    align-items: center;
    gap: var(--node-space-2);
    min-width: 0;
  }
  .title {
    font-weight: var(--node-font-weight-semibold);
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .preview {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: var(--node-font-size-sm);
  }
  .small {
    font-size: var(--node-font-size-xs);
  }
`

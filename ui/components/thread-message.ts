/**
 * How one message of a thread is drawn: who wrote it, its text (the Muse's as markdown, through
 * the sanitising renderer of ./markdown.ts; a being's as plain text), its attachments, and the
 * tool chips of a Muse reply. A chip says where its call stands (waiting, running, done, failed);
 * one that acts on the world and was not run says it waits for the owner's approval, on the desktop.
 */
import { css, html, nothing } from "lit"
import type { Message, ToolCallChip } from "../../extensions/threads/contract/records.ts"
import { mdiPaperclip } from "@mdi/js"
import { formatDateTime } from "./format.ts"
import { icon } from "./icon.ts"
import { renderMarkdown } from "./markdown.ts"
import { linkedMarkdown } from "./settings-links.ts"
import "./read-aloud.ts"

const stateWords: Record<ToolCallChip["state"], string> = {
  pending: "Waiting",
  running: "Running…",
  done: "Done",
  error: "Failed"
}

export const toolChip = (chip: ToolCallChip) => {
  const waiting = chip.approval !== null
  return html`<li class="chip" data-state=${waiting ? "approval" : chip.state} data-tool=${chip.name}>
    <code>${chip.name}</code>
    <span class="chip-state">${waiting ? "Waits for your approval" : stateWords[chip.state]}${chip.state === "done" && chip.durationMs !== null ? html` · ${chip.durationMs} ms` : nothing}</span>
    ${
      waiting
        ? html`<a href="/">Decide on the desktop</a>`
        : chip.state === "error" && chip.error !== null
          ? html`<span class="chip-error">${chip.error}</span>`
          : nothing
    }
  </li>`
}

export const toolChips = (chips: ReadonlyArray<ToolCallChip>) =>
  chips.length === 0 ? nothing : html`<ul class="chips" aria-label="Tools used">${chips.map(toolChip)}</ul>`

/** The Muse's words as markdown, made safe: a fragment for the template, never an HTML string. */
export const museText = (text: string) =>
  html`<div class="markdown">${renderMarkdown(linkedMarkdown(text), window.location.href)}</div>`

/** `speakable`: a Muse reply offers to be read aloud (the place says so: /muse does). */
export const threadMessage = (message: Message, author: string, mine: boolean, speakable = false) =>
  html`<li class="message" data-role=${message.role} data-mine=${mine ? "true" : "false"} data-message-id=${message.id}>
    <p class="meta"><span class="author">${author}</span> <time datetime=${message.createdAt}>${formatDateTime(message.createdAt)}</time></p>
    ${toolChips(message.toolCalls)}
    ${message.role === "assistant" ? museText(message.content) : html`<p class="text">${message.content}</p>`}
    ${
      message.attachments.length === 0
        ? nothing
        : html`<ul class="attachments" aria-label="Attachments">
          ${message.attachments.map((file) => html`<li>${icon(mdiPaperclip)} ${file.name}</li>`)}
        </ul>`
    }
    ${
      speakable && message.role === "assistant" && message.content !== ""
        ? html`<read-aloud .threadId=${message.threadId} .messageId=${message.id}></read-aloud>`
        : nothing
    }
  </li>`

export const threadMessageStyles = css`
  .messages {
    list-style: none;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
    gap: var(--node-space-3);
  }
  .message {
    max-width: min(44rem, 92%);
    padding: var(--node-space-3) var(--node-space-4);
    border-radius: var(--node-radius);
    background: var(--node-surface-raised);
    overflow-wrap: anywhere;
    min-width: 0;
  }
  .message[data-mine="true"] {
    align-self: flex-end;
    background: var(--node-accent-soft);
    color: var(--node-accent-soft-text);
  }
  .meta {
    margin: 0 0 var(--node-space-1);
    font-size: var(--node-font-size-xs);
    color: var(--node-muted);
  }
  .author {
    font-weight: var(--node-font-weight-semibold);
  }
  .text {
    margin: 0;
    white-space: pre-wrap;
  }
  .markdown > :first-child {
    margin-top: 0;
  }
  .markdown > :last-child {
    margin-bottom: 0;
  }
  .markdown pre {
    overflow-x: auto;
    max-width: 100%;
  }
  .markdown code {
    white-space: pre-wrap;
  }
  .thinking {
    color: var(--node-muted);
    font-style: italic;
    margin: 0;
  }
  .chips {
    list-style: none;
    margin: 0 0 var(--node-space-2);
    padding: 0;
    display: flex;
    flex-wrap: wrap;
    gap: var(--node-space-1);
  }
  .chip {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    gap: var(--node-space-1) var(--node-space-2);
    font-size: var(--node-font-size-xs);
    border: 1px solid var(--node-border-strong);
    border-radius: var(--node-radius-pill);
    padding: 2px var(--node-space-2);
    background: var(--node-surface);
    color: var(--node-text);
    max-width: 100%;
  }
  .chip code {
    white-space: normal;
  }
  .chip[data-state="done"] {
    border-color: var(--node-success);
  }
  .chip[data-state="error"],
  .chip[data-state="approval"] {
    border-color: var(--node-warning);
  }
  .chip[data-state="running"] .chip-state,
  .chip[data-state="pending"] .chip-state {
    color: var(--node-muted);
  }
  .chip-error {
    color: var(--node-danger);
  }
  .attachments {
    list-style: none;
    margin: var(--node-space-2) 0 0;
    padding: 0;
    font-size: var(--node-font-size-sm);
  }
`

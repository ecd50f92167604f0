/**
 * `<thread-conversation>`: one thread as a conversation, for /muse and /messages. Its messages
 * (./thread-live.ts keeps them current), a Muse reply streaming in (a thinking line until its
 * first words, its tool chips changing state), and the composer: Enter sends, Shift+Enter starts
 * a new line, and the controls rest while the message is on its way. Files from the being's
 * uploads can go with a message. A thread nobody answers in (replyPolicy `none`) has no composer.
 *
 * The composer's text can be filled from outside (`appendToDraft`): a voice recorder's transcript.
 */
import { css, html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import type { FileEntry } from "../../extensions/files/contract/records.ts"
import type { Message, Thread } from "../../extensions/threads/contract/records.ts"
import { MAX_ATTACHMENTS, MAX_MESSAGE_CHARS } from "../../extensions/threads/contract/records.ts"
import { request } from "../api/client.ts"
import { sharedStyles } from "../styles/shared-styles.ts"
import "./node-alert.ts"
import { ThreadLive } from "./thread-live.ts"
import { museText, threadMessage, threadMessageStyles, toolChips } from "./thread-message.ts"

/** How close to the end (px) the list must be to keep following new words. */
const FOLLOW_SLACK_PX = 48

@customElement("thread-conversation")
export class ThreadConversation extends LitElement {
  @property({ attribute: false }) accessor thread: Thread | null = null

  /** The signed-in being: its messages are "You". */
  @property() accessor selfId = ""

  /** The Muse's replies offer to be read aloud by the node's speech tier. */
  @property({ type: Boolean }) accessor speakable = false

  @state() private accessor _sending = false

  @state() private accessor _error = ""

  @state() private accessor _draft = ""

  /** The being's uploads, once asked for (the attach button). */
  @state() private accessor _uploads: ReadonlyArray<FileEntry> | null = null

  @state() private accessor _attached: ReadonlyArray<FileEntry> = []

  @state() private accessor _picking = false

  @query(".scroll") private accessor _scroll!: HTMLElement | null

  @query("textarea") private accessor _textarea!: HTMLTextAreaElement | null

  private readonly _live = new ThreadLive(this)

  private _following = true

  /** Adds words to the composer (a voice transcript), after what is there. */
  appendToDraft(text: string): void {
    const words = text.trim()
    if (words === "") return
    this._draft = this._draft.trim() === "" ? words : `${this._draft.trimEnd()} ${words}`
    void this.updateComplete.then(() => this._textarea?.focus())
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("thread")) {
      const id = this.thread?.id ?? ""
      if (id !== this._live.threadId) {
        this._live.threadId = id
        this._following = true
        this._attached = []
        this._error = ""
      }
    }
  }

  protected override updated(): void {
    const box = this._scroll
    if (box !== null && this._following) box.scrollTop = box.scrollHeight
  }

  protected override render() {
    const thread = this.thread
    if (thread === null) return nothing
    const live = this._live
    return html`
      <div class="scroll" @scroll=${this._onScroll} tabindex="0" aria-label=${`Messages with ${thread.title}`}>
        ${
          live.loaded && live.messages.length === 0 && live.streaming === null
            ? html`<p class="muted empty">No messages yet.${thread.replyPolicy === "none" ? "" : " Write the first one below."}</p>`
            : nothing
        }
        ${!live.loaded && live.error === "" ? html`<p class="muted" role="status">Loading messages…</p>` : nothing}
        <ol class="messages">
          ${live.messages.map((message) => threadMessage(message, this._authorOf(message, thread), message.authorId === this.selfId, this.speakable))}
          ${this._renderStreaming(thread)}
        </ol>
      </div>
      <node-alert .message=${this._error || live.error}></node-alert>
      ${
        thread.replyPolicy === "none"
          ? html`<p class="muted read-only">Read-only: nobody answers in this thread.</p>`
          : this._renderComposer(thread)
      }
    `
  }

  private _renderStreaming(thread: Thread) {
    const reply = this._live.streaming
    if (reply === null) return nothing
    return html`<li class="message streaming" data-role="assistant" data-mine="false" aria-busy="true">
      <p class="meta"><span class="author">${thread.title}</span></p>
      ${toolChips(reply.chips)}
      ${
        reply.text === ""
          ? html`<p class="thinking" role="status">${thread.title} is thinking…</p>`
          : museText(reply.text)
      }
    </li>`
  }

  private _renderComposer(thread: Thread) {
    const placeholder = `Write to ${thread.title}`
    return html`<form class="composer" @submit=${this._onSubmit} aria-label="Write a message">
      ${
        this._attached.length === 0
          ? nothing
          : html`<ul class="attached" aria-label="Attached files">
            ${this._attached.map(
              (file) => html`<li>
              <span>${file.name}</span>
              <button type="button" class="secondary small" aria-label=${`Remove ${file.name}`} @click=${() => this._detach(file)}>×</button>
            </li>`
            )}
          </ul>`
      }
      ${this._picking ? this._renderPicker() : nothing}
      <label class="sr-only" for="composer-text">Message</label>
      <textarea
        id="composer-text"
        rows="2"
        maxlength=${MAX_MESSAGE_CHARS}
        placeholder=${placeholder}
        .value=${this._draft}
        ?disabled=${this._sending}
        @input=${this._onInput}
        @keydown=${this._onKeydown}
      ></textarea>
      <div class="composer-actions">
        <button type="button" class="secondary" aria-expanded=${this._picking ? "true" : "false"} ?disabled=${this._sending} @click=${this._togglePicker}>Attach</button>
        <slot name="composer-tools"></slot>
        <button type="submit" ?disabled=${this._sending || this._draft.trim() === ""}>${this._sending ? "Sending…" : "Send"}</button>
      </div>
    </form>`
  }

  private _renderPicker() {
    const uploads = this._uploads
    if (uploads === null) return html`<p class="muted" role="status">Loading your uploads…</p>`
    const files = uploads.filter((file) => !file.isDir)
    if (files.length === 0)
      return html`<p class="muted picker">You have no uploads yet. Upload files in the Studio, then attach them here.</p>`
    return html`<fieldset class="picker">
      <legend>Attach from your uploads</legend>
      ${files.map(
        (file) => html`<label class="pick">
        <input type="checkbox" .checked=${this._attached.some((chosen) => chosen.id === file.id)}
          ?disabled=${this._attached.length >= MAX_ATTACHMENTS && !this._attached.some((chosen) => chosen.id === file.id)}
          @change=${(event: Event) => this._toggleAttachment(file, (event.target as HTMLInputElement).checked)} />
        ${file.name}
      </label>`
      )}
    </fieldset>`
  }

  private _authorOf(message: Message, thread: Thread): string {
    if (message.role === "assistant") return thread.title
    if (message.authorId === this.selfId) return "You"
    return thread.kind === "direct" ? thread.title : "Someone"
  }

  private readonly _onScroll = (): void => {
    const box = this._scroll
    if (box !== null) this._following = box.scrollHeight - box.scrollTop - box.clientHeight <= FOLLOW_SLACK_PX
  }

  private _onInput(event: Event): void {
    this._draft = (event.target as HTMLTextAreaElement).value
  }

  private _onKeydown(event: KeyboardEvent): void {
    if (event.key !== "Enter" || event.shiftKey || event.isComposing) return
    event.preventDefault()
    void this._send()
  }

  private _onSubmit(event: Event): void {
    event.preventDefault()
    void this._send()
  }

  private async _togglePicker(): Promise<void> {
    this._picking = !this._picking
    if (!this._picking) return
    const result = await request((client) => client.files.list({ urlParams: { scope: "upload" } }))
    if (result.ok) this._uploads = result.value
    else {
      this._picking = false
      this._error = result.failure.message
    }
  }

  private _toggleAttachment(file: FileEntry, on: boolean): void {
    this._attached = on
      ? [...this._attached.filter((chosen) => chosen.id !== file.id), file]
      : this._attached.filter((chosen) => chosen.id !== file.id)
  }

  private _detach(file: FileEntry): void {
    this._toggleAttachment(file, false)
  }

  private async _send(): Promise<void> {
    const thread = this.thread
    const content = this._draft.trim()
    if (thread === null || content === "" || this._sending) return
    this._sending = true
    this._error = ""
    const attachments = this._attached.map((file) => file.id)
    const result = await request((client) =>
      client.threads.postMessage({
        path: { id: thread.id },
        payload: attachments.length === 0 ? { content } : { content, attachments }
      })
    )
    this._sending = false
    if (result.ok) {
      this._draft = ""
      this._attached = []
      this._picking = false
      this._following = true
      this._live.added(result.value)
    } else {
      this._error = result.failure.message
    }
    await this.updateComplete
    this._textarea?.focus()
  }

  static override styles = [
    sharedStyles,
    threadMessageStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        gap: var(--node-space-3);
        min-width: 0;
      }
      .scroll {
        max-height: min(60vh, 40rem);
        min-height: 10rem;
        overflow-y: auto;
        overflow-x: hidden;
        padding: var(--node-space-2);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
        background: var(--node-surface);
      }
      .empty {
        margin: var(--node-space-3);
      }
      .composer {
        display: flex;
        flex-direction: column;
        gap: var(--node-space-2);
        margin: 0;
        max-width: none;
      }
      .composer textarea {
        width: 100%;
        resize: vertical;
      }
      .composer-actions {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-2);
        justify-content: flex-end;
        align-items: center;
      }
      .attached {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-2);
      }
      .attached li {
        display: inline-flex;
        align-items: center;
        gap: var(--node-space-1);
        font-size: var(--node-font-size-sm);
        overflow-wrap: anywhere;
      }
      button.small {
        min-height: 0;
        padding: 0 var(--node-space-2);
      }
      .picker {
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-sm);
        padding: var(--node-space-2) var(--node-space-3);
        margin: 0;
        max-height: 12rem;
        overflow-y: auto;
      }
      .pick {
        display: flex;
        flex-direction: row;
        align-items: center;
        gap: var(--node-space-2);
        font-weight: var(--node-font-weight-regular);
        overflow-wrap: anywhere;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "thread-conversation": ThreadConversation
  }
}

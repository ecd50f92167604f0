/**
 * The Muse, at `/muse`: the being's conversation with its twin's voice. The newest muse thread
 * opens (the node makes the first one when the list is asked for), or the one `?thread=` names;
 * a being with several picks among them, and can start a new one. The reply streams in with its
 * thinking state and tool chips (the shared `<thread-conversation>`); the Muse's name is chosen
 * here too (`<muse-name>`). The list is loaded at the live channel's hello and kept current by
 * `thread.updated`.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { Thread } from "../../../extensions/threads/contract/records.ts"
import { DEFAULT_MUSE_NAME } from "../../../extensions/threads/contract/records.ts"
import { request } from "../../api/client.ts"
import { ApiAction } from "../../components/api-action.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import "../../components/thread-conversation.ts"
import type { NodeEventMap } from "../../shell/events.ts"
import { newestFirst } from "../../components/thread-live.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { navigate } from "../../shell/router.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./muse-name.ts"
import "./muse-voice.ts"

/** A muse thread's name in the switcher: when it began, and how it ends so far. */
const threadLabel = (thread: Thread) =>
  `${formatDateTime(thread.createdAt)} · ${thread.preview === null ? "no messages yet" : thread.preview.slice(0, 60)}`

@customElement("muse-place")
export class MusePlace extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  /** The `thread` query parameter: which muse thread is open; "" opens the newest. */
  @property() accessor threadId = ""

  @state() private accessor _threads: ReadonlyArray<Thread> | null = null

  @state() private accessor _error = ""

  private readonly _starting = new ApiAction(this)

  private readonly _load = new LiveLoad(this, () => void this._loadThreads())

  private readonly _events = new LiveEvents(this, {
    "thread.updated": (event) => {
      if (event.thread.kind !== "muse" || this._threads === null) return
      this._threads = [...this._threads.filter((thread) => thread.id !== event.thread.id), event.thread].sort(
        newestFirst
      )
    }
  })

  protected override render() {
    const threads = this._threads
    const current =
      threads === null ? null : (threads.find((thread) => thread.id === this.threadId) ?? threads[0] ?? null)
    return html`
      <h1 tabindex="-1">Muse</h1>
      <div class="head">
        <muse-name .name=${current?.title ?? DEFAULT_MUSE_NAME} @muse-renamed=${() => void this._loadThreads()}></muse-name>
        <div class="threads">
          ${
            threads !== null && threads.length > 1
              ? html`<label class="switch">Conversation
                <select @change=${this._onSwitch}>
                  ${threads.map((thread) => html`<option value=${thread.id} ?selected=${thread.id === current?.id}>${threadLabel(thread)}</option>`)}
                </select>
              </label>`
              : nothing
          }
          <button type="button" class="secondary" ?disabled=${this._starting.busy} @click=${this._newThread}>New conversation</button>
        </div>
      </div>
      <node-alert .message=${this._error || this._starting.error}></node-alert>
      ${threads === null && this._error === "" ? html`<p class="muted" role="status">Loading your Muse…</p>` : nothing}
      ${
        current === null
          ? nothing
          : html`<thread-conversation .thread=${current} .selfId=${this.being?.id ?? ""} speakable>
        <muse-voice slot="composer-tools" @voice-text=${this._onVoiceText}></muse-voice>
      </thread-conversation>`
      }
    `
  }

  /** What was said into the microphone joins the draft, for the person to read before sending. */
  private readonly _onVoiceText = (event: NodeEventMap["voice-text"]): void => {
    this.renderRoot.querySelector("thread-conversation")?.appendToDraft(event.detail.text)
  }

  private async _loadThreads(): Promise<void> {
    const result = await request((client) => client.threads.listThreads({ urlParams: { kind: "muse" } }))
    if (result.ok) {
      this._threads = [...result.value].sort(newestFirst)
      this._error = ""
    } else {
      this._error = result.failure.message
    }
  }

  private _onSwitch(event: Event): void {
    navigate(`/muse?thread=${encodeURIComponent((event.target as HTMLSelectElement).value)}`)
  }

  private async _newThread(): Promise<void> {
    await this._starting.run(
      (client) => client.threads.openThread({ payload: { kind: "muse" } }),
      (thread) => {
        this._threads = [thread, ...(this._threads ?? []).filter((known) => known.id !== thread.id)]
        navigate(`/muse?thread=${encodeURIComponent(thread.id)}`)
      }
    )
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    css`
      .head {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        align-items: flex-end;
        gap: var(--node-space-3);
        margin: 0 0 var(--node-space-4);
      }
      .threads {
        display: flex;
        flex-wrap: wrap;
        align-items: flex-end;
        gap: var(--node-space-2);
        min-width: 0;
        max-width: 100%;
      }
      .switch {
        min-width: 0;
        max-width: 100%;
      }
      .switch select {
        max-width: 100%;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "muse-place": MusePlace
  }
}

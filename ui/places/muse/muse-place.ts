/**
 * The Muse, at `/muse`: the being's conversation with its twin's voice. The newest muse thread
 * opens (the node makes the first one when the list is asked for), or the one `?thread=` names;
 * a being with several picks among them, and can start a new one. The reply streams in with its
 * thinking state and tool chips (the shared `<thread-conversation>`); the Muse's name is chosen
 * here too (`<muse-name>`). The switcher offers the newest threads a page at a time ("Show more"
 * asks for the next); the list is loaded at the live channel's hello and again at each
 * `thread.updated` of a muse thread. The thread `?thread=` names is read by its id when it is
 * older than the pages shown (open-thread.ts).
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { Thread } from "../../../extensions/threads/contract/records.ts"
import { DEFAULT_MUSE_NAME } from "../../../extensions/threads/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { OpenThread } from "../../components/open-thread.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import "../../components/thread-conversation.ts"
import type { NodeEventMap } from "../../shell/events.ts"
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

  /** The being's muse threads, newest activity first, a page at a time (the node makes the first one). */
  private readonly _threads = new PagedResource<Thread>(
    this,
    (client, page) => client.threads.listThreads({ urlParams: { kind: "muse", ...page } }),
    { loadOnConnect: false }
  )

  private readonly _open = new OpenThread(this, () => this.threadId)

  private readonly _starting = new ApiAction(this)

  private readonly _load = new LiveLoad(this, () => void this._threads.reload())

  /** The list is read again (as many threads as are shown, from the top) so a thread moves to where it now is. */
  private readonly _events = new LiveEvents(this, {
    "thread.updated": (event) => {
      if (event.thread.kind !== "muse") return
      this._open.take(event.thread)
      void this._threads.reload()
    }
  })

  protected override render() {
    const threads = this._threads.value
    const named = this._open.of(threads)
    // An address that names no muse thread of the being's opens the newest, as one that names none.
    const current =
      this.threadId === "" || this._open.missing || (named !== null && named.kind !== "muse")
        ? (threads?.[0] ?? null)
        : named
    // The thread the address names stays among the choices when it is older than the pages shown.
    const choices =
      threads === null || current === null || threads.some((thread) => thread.id === current.id)
        ? (threads ?? [])
        : [...threads, current]
    return html`
      <h1 tabindex="-1">Muse</h1>
      <div class="head">
        <muse-name .name=${current?.title ?? DEFAULT_MUSE_NAME} @muse-renamed=${this._onRenamed}></muse-name>
        <div class="threads">
          ${
            choices.length > 1
              ? html`<label class="switch">Conversation
                <select @change=${this._onSwitch}>
                  ${choices.map((thread) => html`<option value=${thread.id} ?selected=${thread.id === current?.id}>${threadLabel(thread)}</option>`)}
                </select>
              </label>`
              : nothing
          }
          ${this._threads.renderMore("conversations")}
          <button type="button" class="secondary" ?disabled=${this._starting.busy} @click=${this._newThread}>New conversation</button>
        </div>
      </div>
      <node-alert .message=${this._threads.error || this._open.error || this._starting.error}></node-alert>
      ${this._threads.render("Loading your Muse…", () => nothing)}
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

  /** Every muse thread is titled with the Muse's name: the list and the open thread are read again. */
  private readonly _onRenamed = (): void => {
    void Promise.all([this._threads.reload(), this._open.load()])
  }

  private _onSwitch(event: Event): void {
    navigate(`/muse?thread=${encodeURIComponent((event.target as HTMLSelectElement).value)}`)
  }

  private async _newThread(): Promise<void> {
    const started = await this._starting.run(
      (client) => client.threads.openThread({ payload: { kind: "muse" } }),
      (thread) => navigate(`/muse?thread=${encodeURIComponent(thread.id)}`)
    )
    if (started) await this._threads.reload()
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

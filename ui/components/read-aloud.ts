/**
 * `<read-aloud>`: a button that has the node read one message aloud (`POST
 * /api/threads/:id/messages/:messageId/speech`, the speech tier) and plays the answer in an
 * `<audio>` element from a blob. The audio is fetched for this click and kept in this page only;
 * a refusal (no speech tier bound, a spend ceiling) is shown in the node's words.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import * as Schema from "effect/Schema"
import { sharedStyles } from "../styles/shared-styles.ts"
import "./node-alert.ts"

const ApiErrorBody = Schema.Struct({ error: Schema.String, message: Schema.String })

@customElement("read-aloud")
export class ReadAloud extends LitElement {
  @property() accessor threadId = ""

  @property() accessor messageId = ""

  @state() private accessor _busy = false

  @state() private accessor _error = ""

  @state() private accessor _src = ""

  @query("audio") private accessor _audio!: HTMLAudioElement | null

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    if (this._src !== "") URL.revokeObjectURL(this._src)
  }

  protected override render() {
    return html`
      <button type="button" class="secondary" ?disabled=${this._busy} @click=${this._read}>
        ${this._busy ? "Preparing the voice…" : "Read aloud"}
      </button>
      ${this._src === "" ? nothing : html`<audio controls src=${this._src}></audio>`}
      ${this._error === "" ? nothing : html`<node-alert kind="error" .message=${this._error}></node-alert>`}
    `
  }

  private readonly _read = async (): Promise<void> => {
    if (this._src !== "") {
      void this._audio?.play().catch(() => undefined)
      return
    }
    this._busy = true
    this._error = ""
    try {
      const path = `/api/threads/${encodeURIComponent(this.threadId)}/messages/${encodeURIComponent(this.messageId)}/speech`
      const response = await fetch(path, { method: "POST", credentials: "same-origin" })
      if (!response.ok) {
        const refusal = Schema.decodeUnknownEither(ApiErrorBody)(await response.json().catch(() => null))
        this._error =
          refusal._tag === "Right"
            ? refusal.right.message
            : `The node could not read this aloud (status ${response.status}).`
        return
      }
      this._src = URL.createObjectURL(await response.blob())
      await this.updateComplete
      // Playing may be refused (no audio device, a browser policy): the controls stay to play by hand.
      void this._audio?.play().catch(() => undefined)
    } catch {
      this._error = "The node did not answer. Check that it is running and that you are online, then try again."
    } finally {
      this._busy = false
    }
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--node-space-2);
        margin-top: var(--node-space-2);
      }
      audio {
        max-width: 100%;
        height: 2rem;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "read-aloud": ReadAloud
  }
}

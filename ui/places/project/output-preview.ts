/**
 * A text file's preview behind a "Preview" disclosure, fetched the first time it is opened
 * (a run can leave many files): the file's text in a `<pre>`, as text. What an agent wrote is
 * never rendered as HTML here. The file route is a raw one beside the typed contract, so this
 * asks it with `fetch` (same origin, the session cookie goes along) and tells a failure in words.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** The most of a file shown. */
const PREVIEW_CHARS = 200_000

type Preview =
  | { readonly state: "closed" }
  | { readonly state: "loading" }
  | { readonly state: "shown"; readonly text: string; readonly cut: boolean }
  | { readonly state: "failed"; readonly message: string }

const failureWords = (status: number): string =>
  status === 404
    ? "The file is not there any more."
    : status === 401
      ? "Your session has ended. Log in again to read it."
      : `The preview could not be loaded (the node answered ${status}).`

@customElement("output-preview")
export class OutputPreview extends LitElement {
  @property() accessor url = ""

  @property() accessor name = ""

  @state() private accessor _preview: Preview = { state: "closed" }

  protected override render() {
    const preview = this._preview
    return html`<details @toggle=${this._onToggle}>
      <summary>Preview<span class="sr-only"> ${this.name}</span></summary>
      ${preview.state === "loading" ? html`<p class="muted" role="status">Loading the preview…</p>` : nothing}
      <node-alert .message=${preview.state === "failed" ? preview.message : ""}></node-alert>
      ${preview.state === "shown"
        ? html`<pre class="file">${preview.text}</pre>
            ${preview.cut ? html`<p class="muted">The preview shows the beginning; download the file for the rest.</p>` : nothing}`
        : nothing}
    </details>`
  }

  private async _onToggle(event: Event): Promise<void> {
    const details = event.currentTarget as HTMLDetailsElement
    if (!details.open || this._preview.state === "loading" || this._preview.state === "shown") return
    this._preview = { state: "loading" }
    try {
      const response = await fetch(this.url, { credentials: "same-origin" })
      if (!response.ok) {
        this._preview = { state: "failed", message: failureWords(response.status) }
        return
      }
      const text = await response.text()
      this._preview = { state: "shown", text: text.slice(0, PREVIEW_CHARS), cut: text.length > PREVIEW_CHARS }
    } catch {
      this._preview = {
        state: "failed",
        message: "The node did not answer. Check that it is running and that you are online, then open the preview again."
      }
    }
  }

  static override styles = [
    sharedStyles,
    css`
      details {
        font-size: 0.95rem;
      }
      pre.file {
        margin: 6px 0 0;
        padding: 10px;
        max-height: 28rem;
        overflow: auto;
        background: var(--node-bg);
        border: 1px solid var(--node-border);
        border-radius: 6px;
        font-family: var(--node-font-mono);
        font-size: 0.85rem;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "output-preview": OutputPreview
  }
}

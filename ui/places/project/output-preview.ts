/**
 * A text file's preview behind a "Preview" disclosure, fetched the first time it is opened
 * (a run can leave many files). Markdown is drawn as a document, sanitised (markdown.ts: no
 * scripts, styles or foreign images); any other text is shown as it is in a `<pre>`. The file route is a raw one beside
 * the typed contract, so this
 * asks it with `fetch` (same origin, the session cookie goes along) and tells a failure in words.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { renderMarkdown } from "../../components/markdown.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** The most of a file shown. */
const PREVIEW_CHARS = 200_000

type Preview =
  | { readonly state: "closed" }
  | { readonly state: "loading" }
  | {
      readonly state: "shown"
      readonly text: string
      readonly cut: boolean
      readonly markdown: DocumentFragment | null
    }
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

  /** Whether the file is markdown (its output kind, or its name's extension). */
  @property({ type: Boolean }) accessor markdown = false

  @state() private accessor _preview: Preview = { state: "closed" }

  protected override render() {
    const preview = this._preview
    return html`<details @toggle=${this._onToggle}>
      <summary>Preview<span class="sr-only"> ${this.name}</span></summary>
      ${preview.state === "loading" ? html`<p class="muted" role="status">Loading the preview…</p>` : nothing}
      <node-alert .message=${preview.state === "failed" ? preview.message : ""}></node-alert>
      ${
        preview.state === "shown"
          ? html`${preview.markdown === null ? html`<pre class="file">${preview.text}</pre>` : html`<div class="markdown">${preview.markdown}</div>`}
            ${preview.cut ? html`<p class="muted">The preview shows the beginning; download the file for the rest.</p>` : nothing}`
          : nothing
      }
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
      const shown = text.slice(0, PREVIEW_CHARS)
      const markdown = this.markdown || /\.(md|markdown)$/i.test(this.name) ? renderMarkdown(shown, this.url) : null
      this._preview = { state: "shown", text: shown, cut: text.length > PREVIEW_CHARS, markdown }
    } catch {
      this._preview = {
        state: "failed",
        message:
          "The node did not answer. Check that it is running and that you are online, then open the preview again."
      }
    }
  }

  static override styles = [
    sharedStyles,
    css`
      details {
        font-size: var(--node-font-size-sm);
      }
      pre.file,
      .markdown {
        margin: var(--node-space-2) 0 0;
        max-height: 32rem;
        overflow: auto;
        background: var(--node-surface-sunken);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
      }
      pre.file {
        padding: var(--node-space-3);
        font-family: var(--node-font-mono);
        font-size: var(--node-font-size-sm);
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      /* A document to read: the reading measure, the type scale, the file's own headings by level. */
      .markdown {
        padding: var(--node-space-4) var(--node-space-5);
        font-size: var(--node-font-size-md);
        line-height: 1.6;
        overflow-wrap: anywhere;
      }
      .markdown > * {
        max-width: var(--node-reading-max);
      }
      .markdown :is(h4, h5, h6) {
        line-height: var(--node-line-height-tight);
        margin: var(--node-space-5) 0 var(--node-space-2);
        font-weight: var(--node-font-weight-semibold);
      }
      .markdown > :first-child {
        margin-top: 0;
      }
      .markdown [data-depth="1"] {
        font-size: var(--node-font-size-xl);
        font-weight: var(--node-font-weight-bold);
      }
      .markdown [data-depth="2"] {
        font-size: var(--node-font-size-lg);
      }
      .markdown [data-depth="3"] {
        font-size: var(--node-font-size-md);
      }
      .markdown :is([data-depth="4"], [data-depth="5"], [data-depth="6"]) {
        font-size: var(--node-font-size-sm);
        text-transform: uppercase;
        letter-spacing: var(--node-letter-spacing-caps);
      }
      .markdown :is(p, ul, ol, blockquote, table, pre) {
        margin: 0 0 var(--node-space-3);
      }
      .markdown :is(ul, ol) {
        padding-left: var(--node-space-5);
      }
      .markdown li + li {
        margin-top: var(--node-space-1);
      }
      .markdown blockquote {
        padding: 0 var(--node-space-4);
        border-left: 3px solid var(--node-border-strong);
        color: var(--node-muted);
      }
      .markdown code {
        white-space: pre-wrap;
        background: var(--node-surface-raised);
        border-radius: 4px;
        padding: 0.1em 0.3em;
      }
      .markdown pre {
        padding: var(--node-space-3);
        background: var(--node-surface-raised);
        border-radius: var(--node-radius-sm);
        overflow-x: auto;
        font-size: var(--node-font-size-sm);
      }
      .markdown pre code {
        background: none;
        padding: 0;
      }
      .markdown hr {
        border: none;
        border-top: 1px solid var(--node-border);
        margin: var(--node-space-4) 0;
      }
      .markdown img {
        max-width: 100%;
        border-radius: var(--node-radius-sm);
      }
      .markdown table {
        display: block;
        overflow-x: auto;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "output-preview": OutputPreview
  }
}

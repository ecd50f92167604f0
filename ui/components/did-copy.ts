/**
 * A did shown whole (it is read out or pasted, never typed), with a button that copies it. The
 * clipboard may be refused (an insecure origin, a denied permission): the did is then selected,
 * so the person copies it by hand, and the button says so.
 */
import { css, html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { sharedStyles } from "../styles/shared-styles.ts"

@customElement("did-copy")
export class DidCopy extends LitElement {
  @property() accessor did = ""

  /** What the did is, for the copy button's name ("Copy this node's did"). */
  @property() accessor label = "did"

  /** Text of several lines (a configuration to paste): shown as written, line breaks kept. */
  @property({ type: Boolean }) accessor block = false

  @state() private accessor _said = ""

  protected override render() {
    return html`<span class="did">${this.block ? html`<pre><code>${this.did}</code></pre>` : html`<code>${this.did}</code>`}
      <button class="secondary" type="button" aria-label=${`Copy ${this.label}`} @click=${this._copy}>Copy</button>
      <span class="muted" role="status">${this._said}</span></span>`
  }

  private readonly _copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(this.did)
      this._said = "Copied."
    } catch {
      const code = this.renderRoot.querySelector("code")
      if (code !== null) getSelection()?.selectAllChildren(code)
      this._said = "Selected: copy it with your keyboard."
    }
  }

  static override styles = [
    sharedStyles,
    css`
    /* A did is one long word: it wraps anywhere rather than widen a phone's screen. */
    :host { display: block; max-width: 100%; min-width: 0; }
    .did { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5rem; min-width: 0; }
    code { flex: 1 1 12rem; min-width: 0; white-space: normal; overflow-wrap: anywhere; word-break: break-all; }
    pre { flex: 1 1 100%; min-width: 0; margin: 0; overflow-x: auto; }
    pre code { white-space: pre; word-break: normal; }
  `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "did-copy": DidCopy
  }
}

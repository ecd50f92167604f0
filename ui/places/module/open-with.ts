/**
 * "Open with <title>" on one file: a button for each installed viewer and editor whose declared
 * file types include it; the chosen one opens in a dialog, framed (./framed-document.ts) and
 * handed that file alone.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import { handlesFile } from "../../../kernel/contract/plugin-kinds.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./framed-document.ts"
import type { OpenedFile } from "./framed-document.ts"
import type { FramedExtra } from "./plugin-extras.ts"

@customElement("open-with")
export class OpenWith extends LitElement {
  @property({ attribute: false }) accessor file: OpenedFile | null = null
  @property({ attribute: false }) accessor mediaType: string | null = null
  /** Every installed viewer and editor; this file's are picked out. */
  @property({ attribute: false }) accessor handlers: ReadonlyArray<FramedExtra> = []

  @state() private accessor _open: FramedExtra | null = null

  @query("dialog") private accessor _dialog: HTMLDialogElement | null = null

  private _matching(): ReadonlyArray<FramedExtra> {
    const file = this.file
    if (file === null) return []
    return this.handlers.filter(
      (handler) => handler.fileTypes !== null && handlesFile(handler.fileTypes, file.name, this.mediaType)
    )
  }

  protected override render() {
    const matching = this._matching()
    if (matching.length === 0 || this.file === null) return nothing
    const open = this._open
    return html`
      ${matching.map(
        (
          handler
        ) => html`<button class="secondary" type="button" data-handler=${handler.name} @click=${() => this._show(handler)}>
        Open with ${handler.title}<span class="sr-only"> ${this.file!.name}</span>
      </button>`
      )}
      <dialog aria-label=${open === null ? "" : `${open.title}: ${this.file.name}`} @close=${() => {
        this._open = null
      }}>
        ${
          open === null
            ? nothing
            : html`<div class="head"><strong>${open.title}</strong> <span class="muted">${this.file.name}</span>
              <button class="secondary" type="button" @click=${() => this._dialog?.close()}>Close</button></div>
              <framed-document .pluginId=${open.pluginId} .extensionId=${open.extensionId} .label=${open.title} .file=${this.file}></framed-document>`
        }
      </dialog>
    `
  }

  private async _show(handler: FramedExtra): Promise<void> {
    this._open = handler
    await this.updateComplete
    this._dialog?.showModal()
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: inline-flex; flex-wrap: wrap; gap: var(--node-space-2); }
      dialog { width: min(48rem, 95vw); --framed-height: 60vh; }
      .head { display: flex; gap: var(--node-space-2); align-items: center; margin-bottom: var(--node-space-2); }
      .head button { margin-left: auto; }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "open-with": OpenWith
  }
}

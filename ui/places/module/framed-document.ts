/**
 * A plugin's framed document outside its own place: a widget on the desktop, or a viewer or
 * editor opened on one file. Framed exactly as a module is (sandbox="allow-scripts" only, the
 * node's strict policy on the document, no referrer), and talking only through the bridge. When
 * it is opened on a file, two more calls are answered here, by the app, never by the frame's
 * choosing: `file.read` hands it that file (read through the files route as the person, at most
 * `maxHandledFileBytes`), and `file.save` (an editor's) writes its content back to that same file.
 */
import { css, html, LitElement } from "lit"
import { customElement, property, query } from "lit/decorators.js"
import { maxHandledFileBytes } from "../../../kernel/contract/plugin-kinds.ts"
import { request, type Result } from "../../api/client.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { ModuleBridgeHost } from "./module-bridge.ts"

/** The file a viewer or editor is opened on: its id as the files routes take it. */
export interface OpenedFile {
  readonly id: string
  readonly name: string
  readonly size: number
}

const refusal = (code: string, message: string): Result<unknown> => ({
  ok: false,
  failure: { status: null, code, message }
})

@customElement("framed-document")
export class FramedDocument extends LitElement {
  @property() accessor pluginId = ""
  @property() accessor extensionId = ""
  @property() accessor label = ""
  @property({ attribute: false }) accessor file: OpenedFile | null = null

  @query("iframe") private accessor _frame: HTMLIFrameElement | null = null

  private readonly _bridge = new ModuleBridgeHost(
    () => this._frame,
    (method, args) => this._call(method, args)
  )

  override connectedCallback(): void {
    super.connectedCallback()
    this._bridge.attach()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this._bridge.detach()
  }

  private async _call(method: string, args: unknown): Promise<Result<unknown>> {
    const path = { id: encodeURIComponent(this.pluginId), extensionId: this.extensionId }
    if (method === "file.read" || method === "file.save") return this._fileCall(method, args, path)
    const result = await request((client) => client.modules.callModule({ path, payload: { method, args } }))
    return result.ok ? { ok: true, value: result.value.result } : result
  }

  private async _fileCall(
    method: string,
    args: unknown,
    path: { id: string; extensionId: string }
  ): Promise<Result<unknown>> {
    const file = this.file
    if (file === null) return refusal("not_found", "This document was not opened on a file.")
    if (method === "file.save") {
      const content = (args as { content?: unknown } | null)?.content
      if (typeof content !== "string") return refusal("invalid_request", "file.save takes { content: string }.")
      return request((client) => client.modules.saveEditedFile({ path, payload: { fileId: file.id, content } }))
    }
    if (file.size > maxHandledFileBytes) {
      return refusal(
        "file_too_large",
        `${file.name} is larger than a viewer is handed (${maxHandledFileBytes / 1024} KB).`
      )
    }
    const read = await request((client) => client.files.read({ urlParams: { id: file.id } }))
    if (!read.ok) return read
    return { ok: true, value: { name: file.name, mediaType: read.value.mime, ...read.value } }
  }

  protected override render() {
    const src = `/api/modules/${encodeURIComponent(this.pluginId)}/${encodeURIComponent(this.extensionId)}/document`
    return html`<iframe sandbox="allow-scripts" referrerpolicy="no-referrer" title=${this.label} src=${src}></iframe>`
  }

  static override styles = [
    sharedStyles,
    css`
      iframe {
        display: block;
        width: 100%;
        min-height: var(--framed-height, 12rem);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius, 8px);
        background: white;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "framed-document": FramedDocument
  }
}

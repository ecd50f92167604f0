/**
 * What a finished run handed over: every file of the project's workspace, each with its kind and
 * size and a download link (`/api/files/project/<projectId>/<path>`, which only the owner can
 * read). Images show as images; text, markdown, code, data and web pages can be previewed as
 * plain text (output-preview.ts), never rendered as HTML; anything else is a download.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import {
  mdiArchiveOutline,
  mdiCodeTags,
  mdiCubeOutline,
  mdiFileDocumentOutline,
  mdiFilePdfBox,
  mdiFileWordOutline,
  mdiImageOutline,
  mdiLanguageMarkdownOutline,
  mdiReact,
  mdiServerNetwork,
  mdiTableLarge,
  mdiWeb
} from "@mdi/js"
import { icon } from "../../components/icon.ts"
import type { OutputKind } from "../../../extensions/generators/contract/step.ts"
import type { ProjectOutput, ProjectStatus } from "../../../actors/project/contract/records.ts"
import { formatSize, outputKindLabels } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./output-preview.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { installedPlugins } from "../../api/installed-plugins.ts"
import "../module/open-with.ts"
import { framedExtras } from "../module/plugin-extras.ts"
import { encodeFileId } from "../../../extensions/files/contract/file-ids.ts"

const kindIcons: Readonly<Record<OutputKind, string>> = {
  text: mdiFileDocumentOutline,
  markdown: mdiLanguageMarkdownOutline,
  docx: mdiFileWordOutline,
  pdf: mdiFilePdfBox,
  image: mdiImageOutline,
  code: mdiCodeTags,
  "react-app": mdiReact,
  "fullstack-app": mdiServerNetwork,
  html: mdiWeb,
  scene3d: mdiCubeOutline,
  data: mdiTableLarge,
  zip: mdiArchiveOutline
}

const textKinds: ReadonlySet<OutputKind> = new Set(["text", "markdown", "code", "data", "html"])

/** Larger text files are only downloaded: a preview is for reading, not for megabytes. */
const PREVIEW_MAX_BYTES = 512 * 1024

@customElement("project-outputs")
export class ProjectOutputs extends LitElement {
  @property({ attribute: false }) accessor outputs: ReadonlyArray<ProjectOutput> = []

  @property() accessor projectStatus: ProjectStatus = "planning"

  /** The project's id: with an output's path it names the file for "Open with". */
  @property() accessor projectId = ""

  /** The installed plugins' viewers and editors, offered on the outputs they open. */
  private readonly _plugins = new ApiResource(this, installedPlugins, { reloadOn: ["plugins-changed"] })

  protected override render() {
    return html`<section class="card" aria-labelledby="outputs-title">
      <h2 id="outputs-title">Outputs</h2>
      ${
        this.outputs.length === 0
          ? html`<p class="muted">${this._noOutputsWords()}</p>`
          : html`<ul class="outputs">
            ${this.outputs.map((output) => this._renderOutput(output))}
          </ul>`
      }
    </section>`
  }

  private _noOutputsWords(): string {
    switch (this.projectStatus) {
      case "done":
        return "This run saved no files."
      case "failed":
      case "cancelled":
        return "The run stopped before it handed its files over; resume it to go on."
      default:
        return "The files appear here when the run has finished its steps."
    }
  }

  /** The id the files routes take for this output (the node makes the same: extensions/files/contract/file-ids.ts). */
  private _fileId(output: ProjectOutput) {
    return encodeFileId({ scope: "project", projectId: this.projectId, path: output.path })
  }

  private _renderOutput(output: ProjectOutput) {
    return html`<li class="output" data-path=${output.path} data-kind=${output.kind}>
      <p class="line">
        <span class="kind-icon">${icon(kindIcons[output.kind])}</span>
        <strong class="name">${output.path}</strong>
        <span class="muted">${outputKindLabels[output.kind]} · ${formatSize(output.size)}</span>
        <a class="button secondary" href=${output.url} download=${output.name}>Download<span class="sr-only"> ${output.name}</span></a>
        ${
          this.projectId === ""
            ? nothing
            : html`<open-with
              .file=${{ id: this._fileId(output), name: output.name, size: output.size }}
              .handlers=${framedExtras(this._plugins.value ?? []).filter((extra) => extra.kind !== "widget")}
            ></open-with>`
        }
      </p>
      ${
        output.kind === "image"
          ? html`<img src=${output.previewUrl ?? output.url} alt=${`Preview of ${output.name}`} loading="lazy" />`
          : textKinds.has(output.kind)
            ? output.size <= PREVIEW_MAX_BYTES
              ? html`<output-preview
                .url=${output.previewUrl ?? output.url}
                .name=${output.name}
                ?markdown=${output.kind === "markdown"}
              ></output-preview>`
              : html`<p class="muted">Too large to preview here; download it to read it.</p>`
            : nothing
      }
    </li>`
  }

  static override styles = [
    sharedStyles,
    css`
      .outputs {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
      }
      .output {
        border-top: 1px solid var(--node-border);
        padding: var(--node-space-3) 0;
      }
      .output:first-child {
        border-top: none;
        padding-top: 0;
      }
      .kind-icon {
        display: grid;
        place-items: center;
        width: 32px;
        height: 32px;
        border-radius: var(--node-radius-sm);
        background: var(--node-surface-raised);
        color: var(--node-muted);
      }
      .output:last-child {
        padding-bottom: 0;
      }
      .line {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--node-space-1) var(--node-space-3);
        margin: 0 0 var(--node-space-1);
      }
      .name {
        overflow-wrap: anywhere;
      }
      .line .button {
        margin-left: auto;
        min-height: 32px;
        padding: var(--node-space-1) var(--node-space-3);
      }
      img {
        display: block;
        max-width: 100%;
        max-height: 24rem;
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-sm);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-outputs": ProjectOutputs
  }
}

/**
 * What a finished run handed over: every file of the project's workspace, each with its kind and
 * size and a download link (`/api/files/project/<projectId>/<path>`, which only the owner can
 * read). Images show as images; text, markdown, code, data and web pages can be previewed as
 * plain text (output-preview.ts), never rendered as HTML; anything else is a download.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { OutputKind } from "../../../extensions/generators/contract/step.ts"
import type { ProjectOutput, ProjectStatus } from "../../../actors/project/contract/records.ts"
import { formatSize, outputKindLabels } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./output-preview.ts"

const textKinds: ReadonlySet<OutputKind> = new Set(["text", "markdown", "code", "data", "html"])

/** Larger text files are only downloaded: a preview is for reading, not for megabytes. */
const PREVIEW_MAX_BYTES = 512 * 1024

@customElement("project-outputs")
export class ProjectOutputs extends LitElement {
  @property({ attribute: false }) accessor outputs: ReadonlyArray<ProjectOutput> = []

  @property() accessor projectStatus: ProjectStatus = "planning"

  protected override render() {
    return html`<section class="card" aria-labelledby="outputs-title">
      <h2 id="outputs-title">Outputs</h2>
      ${this.outputs.length === 0
        ? html`<p class="muted">${this._noOutputsWords()}</p>`
        : html`<ul class="outputs">
            ${this.outputs.map((output) => this._renderOutput(output))}
          </ul>`}
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

  private _renderOutput(output: ProjectOutput) {
    return html`<li class="output" data-path=${output.path} data-kind=${output.kind}>
      <p class="line">
        <strong class="name">${output.path}</strong>
        <span class="muted">${outputKindLabels[output.kind]} · ${formatSize(output.size)}</span>
        <a class="button secondary" href=${output.url} download=${output.name}>Download<span class="sr-only"> ${output.name}</span></a>
      </p>
      ${output.kind === "image"
        ? html`<img src=${output.previewUrl ?? output.url} alt=${`Preview of ${output.name}`} loading="lazy" />`
        : textKinds.has(output.kind)
          ? output.size <= PREVIEW_MAX_BYTES
            ? html`<output-preview .url=${output.previewUrl ?? output.url} .name=${output.name}></output-preview>`
            : html`<p class="muted">Too large to preview here; download it to read it.</p>`
          : nothing}
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
        gap: 10px;
      }
      .output {
        border-bottom: 1px solid var(--node-border);
        padding: 0 0 10px;
      }
      .output:last-child {
        border-bottom: none;
      }
      .line {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: 4px 12px;
        margin: 0 0 6px;
      }
      .name {
        overflow-wrap: anywhere;
      }
      .line .button {
        margin-left: auto;
        min-height: 36px;
        padding: 4px 12px;
      }
      img {
        display: block;
        max-width: 100%;
        max-height: 24rem;
        border: 1px solid var(--node-border);
        border-radius: 6px;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-outputs": ProjectOutputs
  }
}

/**
 * "Run again from here" for one finished step of a project whose run is over: a button that opens a small form with
 * an optional instruction for the step (what to change), sent as `POST /api/studio/projects/:id/replay`. The node
 * runs the step and every step after it that depends on it again, and keeps the rest (docs/decisions.md "Start
 * again from any step"), in this project or in a new one copied from it (a fork). The form asks the project's page (`replay-requested`), which sends it and tells the answer,
 * a refusal (the run started meanwhile) in the node's words.
 */
import { css, html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { maxReplayInstructionChars } from "../../../actors/project/contract/runs.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("project-replay")
export class ProjectReplay extends LitElement {
  @property() accessor taskId = ""

  /** The step's title, for the form's words. */
  @property() accessor stepTitle = ""

  @state() private accessor _open = false

  @state() private accessor _instruction = ""

  protected override render() {
    if (!this._open) {
      return html`<button type="button" class="secondary" @click=${this._show}>Run again from here</button>`
    }
    return html`<form @submit=${this._submit} aria-label=${`Run again from “${this.stepTitle}”`}>
      <label
        >What to change in this step (optional)
        <textarea
          name="instruction"
          rows="3"
          maxlength=${maxReplayInstructionChars}
          .value=${this._instruction}
          @input=${(event: Event) => (this._instruction = (event.target as HTMLTextAreaElement).value)}
        ></textarea>
      </label>
      <p class="muted hint">This step and the steps that build on it run again; the others are kept as they are.</p>
      <div class="actions">
        <button type="submit">Run again</button>
        <button type="submit" class="secondary" data-fork>Run it in a new project</button>
        <button type="button" class="secondary" @click=${this._hide}>Never mind</button>
      </div>
    </form>`
  }

  private readonly _show = async () => {
    this._open = true
    await this.updateComplete
    this.renderRoot.querySelector("textarea")?.focus()
  }

  private readonly _hide = () => {
    this._open = false
    this._instruction = ""
  }

  /** The page sends it (its own request, so a run that starts and hides this form cannot lose the answer). */
  private readonly _submit = (event: SubmitEvent) => {
    event.preventDefault()
    const fork = event.submitter?.hasAttribute("data-fork") ?? false
    fireEvent(this, "replay-requested", { taskId: this.taskId, instruction: this._instruction.trim(), fork })
    this._hide()
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        margin-top: var(--node-space-2);
      }
      form {
        display: grid;
        gap: var(--node-space-2);
      }
      label {
        display: grid;
        gap: var(--node-space-1);
      }
      .hint {
        margin: 0;
        font-size: var(--node-font-size-sm);
      }
      .actions {
        display: flex;
        gap: var(--node-space-2);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-replay": ProjectReplay
  }
}

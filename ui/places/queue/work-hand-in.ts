/**
 * A step the person holds as a seat of a project's crew: while the run waits on it, what they
 * write here is handed in (POST /api/studio/queue/:taskId/finish) and the steps after it read it.
 */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("work-hand-in")
export class WorkHandIn extends LitElement {
  @property() accessor taskId = ""

  @property() accessor taskTitle = ""

  private readonly _handing = new ApiAction(this)

  protected override render() {
    const busy = this._handing.busy
    return html`<form @submit=${this._handIn} aria-label=${`Hand in ${this.taskTitle}`}>
      <label>What you hand in <textarea name="output" required maxlength="20000" rows="4"></textarea></label>
      <node-alert .message=${this._handing.error}></node-alert>
      <div class="actions"><button type="submit" ?disabled=${busy}>${busy ? "Handing in…" : "Hand it in"}</button></div>
    </form>`
  }

  // The queue reloads on the step's task.updated, which takes this form away.
  private readonly _handIn = onSubmit(async ({ field }) => {
    await this._handing.run((client) =>
      client.studioProjects.finishStep({ path: { taskId: this.taskId }, payload: { output: field("output") } })
    )
  })

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "work-hand-in": WorkHandIn
  }
}

/**
 * An approval gate the person holds: while the run waits on it, Approve lets the steps after it
 * run (POST /api/studio/queue/:taskId/approve); Reject, with a reason, stops the run as failed
 * with that reason (…/reject), for the project's owner to edit the plan and resume.
 */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("work-approve")
export class WorkApprove extends LitElement {
  @property() accessor taskId = ""

  @property() accessor taskTitle = ""

  private readonly _answering = new ApiAction(this)

  protected override render() {
    const busy = this._answering.busy
    return html`<form @submit=${this._reject} aria-label=${`Approve or reject ${this.taskTitle}`}>
      <label>Note or reason <textarea name="note" maxlength="2000" rows="2"></textarea></label>
      <node-alert .message=${this._answering.error}></node-alert>
      <div class="actions">
        <button type="button" ?disabled=${busy} @click=${this._approve}>Approve</button>
        <button type="submit" class="danger" ?disabled=${busy}>Reject</button>
      </div>
    </form>`
  }

  private _note() {
    return (this.renderRoot.querySelector("textarea")?.value ?? "").trim()
  }

  // The queue reloads on the step's task.updated, which takes this form away.
  private readonly _approve = async () => {
    const note = this._note()
    await this._answering.run((client) =>
      client.studioProjects.approveStep({ path: { taskId: this.taskId }, payload: note === "" ? {} : { note } })
    )
  }

  private readonly _reject = onSubmit(async () => {
    const note = this._note()
    if (note === "") {
      this._answering.fail("Say why you reject it: the owner reads your reason.")
      return
    }
    await this._answering.run((client) =>
      client.studioProjects.rejectStep({ path: { taskId: this.taskId }, payload: { note } })
    )
  })

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "work-approve": WorkApprove
  }
}

/**
 * The brief box: what the person wants made, in their own words. Sending it starts a run whose
 * planner turns the brief into steps (`POST /api/studio/projects { brief }`), and the page goes
 * to the new project.
 */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { navigate } from "../../shell/router.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("studio-brief")
export class StudioBrief extends LitElement {
  private readonly _starting = new ApiAction(this)

  protected override render() {
    const busy = this._starting.busy
    return html`
      <section class="card" aria-labelledby="brief-title">
        <h2 id="brief-title">Start from a brief</h2>
        <form @submit=${this._submit}>
          <label
            >Brief
            <textarea
              name="brief"
              rows="4"
              required
              maxlength="8000"
              aria-describedby="brief-help"
              placeholder="Write a one-page brief on heat pumps for a small house"
            ></textarea>
          </label>
          <p class="muted" id="brief-help">Say what you want made and for whom. A planner splits it into steps for a team of agents.</p>
          <node-alert .message=${this._starting.error}></node-alert>
          <div class="actions">
            <button type="submit" ?disabled=${busy}>${busy ? "Starting…" : "Start from the brief"}</button>
          </div>
        </form>
      </section>
    `
  }

  private readonly _submit = onSubmit(({ field }) => {
    const brief = field("brief").trim()
    if (brief === "") return this._starting.fail("Write what you want made first.")
    return this._starting.run(
      (client) => client.studioProjects.createProject({ payload: { brief } }),
      (project) => navigate(`/studio/${encodeURIComponent(project.id)}`)
    )
  })

  static override styles = sharedStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "studio-brief": StudioBrief
  }
}

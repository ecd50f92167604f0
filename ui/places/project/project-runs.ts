/**
 * A project's runs (`GET /api/studio/projects/:id/runs`), first first: how each began (the first start, a resume, a
 * run again from a step with what the owner added, a fork of another project), how it stands or ended, and what its
 * own model calls cost, so a run again from a late step shows it spent only on the steps it ran. Loaded when the
 * page opens and whenever the project's state changes (a run begins or ends).
 */
import { css, html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { ProjectStatus, Task } from "../../../actors/project/contract/records.ts"
import type { ProjectRun } from "../../../actors/project/contract/runs.ts"
import { request } from "../../api/client.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { badge, formatUsd, projectStatusWords } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("project-runs")
export class ProjectRuns extends LitElement {
  @property() accessor projectId = ""

  /** The project's state: a change means a run began or ended, so the list is loaded again. */
  @property() accessor projectStatus: ProjectStatus = "planning"

  /** The project's steps, to name the step a run began from. */
  @property({ attribute: false }) accessor tasks: ReadonlyArray<Task> = []

  @state() private accessor _runs: ReadonlyArray<ProjectRun> = []

  @state() private accessor _error = ""

  private _generation = 0

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has("projectId") || changed.has("projectStatus")) && this.projectId !== "") void this._load()
  }

  private async _load(): Promise<void> {
    const id = this.projectId
    const generation = ++this._generation
    const result = await request((client) => client.studioProjects.projectRuns({ path: { id } }))
    if (generation !== this._generation) return
    if (result.ok) {
      this._runs = result.value
      this._error = ""
    } else this._error = result.failure.message
  }

  protected override render() {
    return html`<section class="card" aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      <node-alert .message=${this._error}></node-alert>
      ${
        this._runs.length === 0
          ? nothing
          : html`<ol class="runs">
            ${this._runs.map(
              (run) => html`<li data-run=${run.number} data-kind=${run.kind}>
                <p class="head">
                  <strong>Run ${run.number}</strong>
                  ${badge(projectStatusWords[run.status])}
                  <span class="spend">spent ${formatUsd(run.costUsd)}</span>
                </p>
                <p class="muted how">${this._howItBegan(run)}</p>
                <p class="muted when">
                  <time datetime=${run.startedAt}>${formatDateTime(run.startedAt)}</time>${
                    run.finishedAt === null
                      ? nothing
                      : html` – <time datetime=${run.finishedAt}>${formatDateTime(run.finishedAt)}</time>`
                  }
                </p>
              </li>`
            )}
          </ol>`
      }
    </section>`
  }

  private _howItBegan(run: ProjectRun) {
    const step = this.tasks.find((task) => task.id === run.fromTaskId)?.title ?? "a step"
    const added = run.instruction === null ? "" : `, adding: “${run.instruction}”`
    switch (run.kind) {
      case "start":
        return "The first run."
      case "resume":
        return "Resumed from the last finished step."
      case "replay":
        return `Again from “${step}”${added}.`
      case "fork":
        return html`Forked from
          ${run.forkedFrom === null ? "another project" : html`<a href=${`/studio/${run.forkedFrom}`}>another project</a>`}
          at “${step}”${added}.`
    }
  }

  static override styles = [
    sharedStyles,
    css`
      .runs {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-3);
      }
      .head {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-2);
        align-items: center;
        margin: 0;
      }
      .how,
      .when {
        margin: var(--node-space-1) 0 0;
        font-size: var(--node-font-size-sm);
        overflow-wrap: anywhere;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-runs": ProjectRuns
  }
}

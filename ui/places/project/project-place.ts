/**
 * One project, at `/studio/<projectId>`: its state (read out when it changes), what it was asked
 * (the brief, or the generator's inputs under the labels of its form), why it stopped if it failed, the QA review, its
 * outputs with previews, the plan (each step with its role, state and dependencies) and the
 * trace of everything the team did. All of it stays live (project-watch.ts). A run under way can
 * be cancelled, and a failed or cancelled one resumed from its last finished step; the node
 * decides, and a refusal (the run moved on meanwhile) is told in its words. A generator's run
 * links to its form filled with the same inputs ("run it again", by the generator's slug).
 */
import type * as Effect from "effect/Effect"
import { css, html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Generator } from "../../../extensions/generators/contract/generator.ts"
import type { Project, ProjectDetail, ProjectReview } from "../../../actors/project/contract/records.ts"
import { type NodeClient, request } from "../../api/client.ts"
import { ApiAction } from "../../components/api-action.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { fieldsOf, valueInWords } from "../../components/schema-fields.ts"
import {
  badge,
  formatUsd,
  projectStatusWords,
  resumableStatuses,
  runningStatuses,
  verdictWords
} from "../../components/studio-labels.ts"
import type { NodeEvents } from "../../shell/events.ts"
import { LateHeading } from "../../shell/heading-focus.ts"
import { navigate } from "../../shell/router.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./project-outputs.ts"
import "./project-plan.ts"
import "./project-runs.ts"
import "./project-trace.ts"
import { ProjectWatch } from "./project-watch.ts"
import { linkedText } from "../../components/settings-links.ts"

@customElement("project-place")
export class ProjectPlace extends LitElement {
  @property() accessor projectId = ""

  private readonly _watch = new ProjectWatch(this)

  private readonly _acting = new ApiAction(this)

  /** The generator the project ran, for its form's labels and its slug; null while unknown, or gone. */
  @state() private accessor _generator: Generator | null = null

  /** The generator id `_generator` was asked for. */
  private _generatorId: string | null = null

  // Named, though nothing reads it: the title is drawn once the project has loaded.
  private readonly _heading = new LateHeading(this)

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("projectId")) this._watch.watch(this.projectId)
    const generatorId = this._watch.detail?.project.generatorId ?? null
    if (generatorId !== this._generatorId) void this._loadGenerator(generatorId)
  }

  private async _loadGenerator(generatorId: string | null): Promise<void> {
    this._generatorId = generatorId
    this._generator = null
    if (generatorId === null) return
    const result = await request((client) => client.studioGenerators.getGenerator({ path: { id: generatorId } }))
    // A generator deleted or made private since has no form to show: the inputs keep their names.
    if (result.ok && this._generatorId === generatorId) this._generator = result.value
  }

  protected override render() {
    const detail = this._watch.detail
    return html`
      <p class="back"><a href="/studio">← Studio</a></p>
      <node-alert .message=${this._acting.error || this._watch.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${
        detail === null
          ? this._watch.loading
            ? html`<p class="muted" role="status">Loading the project…</p>`
            : nothing
          : this._renderProject(detail)
      }
    `
  }

  private _renderProject(detail: ProjectDetail) {
    const { project, review, tasks, team } = detail
    const busy = this._acting.busy
    return html`
      <header class="head">
        <h1>${project.title}</h1>
        <p class="status" role="status" data-status=${project.status}>
          Status: ${badge(projectStatusWords[project.status])}
        </p>
        <p class="muted facts">
          Started <time datetime=${project.createdAt}>${formatDateTime(project.createdAt)}</time> · model spend
          ${formatUsd(project.costUsd)}
          ${
            this._generator === null || this._generator.id !== project.generatorId
              ? nothing
              : html`· <a href=${`/studio?generator=${encodeURIComponent(this._generator.slug)}&from=${encodeURIComponent(project.id)}`}
                  >run it again</a
                >`
          }
        </p>
        <div class="actions">
          ${
            runningStatuses.has(project.status)
              ? html`<button class="danger" type="button" ?disabled=${busy} @click=${this._cancel}>
                ${busy ? "Cancelling…" : "Cancel the run"}
              </button>`
              : nothing
          }
          ${
            resumableStatuses.has(project.status)
              ? html`<button type="button" ?disabled=${busy} @click=${this._resume}>${busy ? "Resuming…" : "Resume the run"}</button>`
              : nothing
          }
        </div>
      </header>
      <div class="split">
        <div>
          ${
            project.status === "failed" && project.error !== null
              ? html`<section class="card stopped" aria-labelledby="stopped-title">
                <h2 id="stopped-title">Why it stopped</h2>
                <p class="pre">${linkedText(project.error)}</p>
              </section>`
              : nothing
          }
          ${this._renderAsked(project)} ${this._renderReview(project, review)}
          <project-outputs .projectId=${this.projectId} .projectStatus=${project.status} .outputs=${project.outputs}></project-outputs>
          <project-runs .projectId=${project.id} .projectStatus=${project.status} .tasks=${tasks}></project-runs>
        </div>
        <project-plan
          .projectStatus=${project.status}
          .projectId=${project.id}
          .planVersion=${project.planVersion}
          .ownerId=${project.ownerId}
          .tasks=${tasks}
          .team=${team}
          @plan-saved=${this._planChanged}
          @plan-stale=${this._planChanged}
          @replay-requested=${this._replay}
        ></project-plan>
      </div>
      <project-trace
        .events=${this._watch.trace}
        .tasks=${tasks}
        .team=${team}
        .error=${this._watch.traceError}
      ></project-trace>
    `
  }

  private _renderAsked(project: Project) {
    const given =
      typeof project.inputs === "object" && project.inputs !== null ? (project.inputs as Record<string, unknown>) : {}
    const fields = this._generator === null ? [] : fieldsOf(this._generator.inputsSchema)
    // The form's order, then anything the form no longer has.
    const inputs = [
      ...fields.filter((field) => Object.hasOwn(given, field.name)).map((field) => [field, field.name] as const),
      ...Object.keys(given)
        .filter((name) => !fields.some((field) => field.name === name))
        .map((name) => [undefined, name] as const)
    ]
    return html`<section class="card" aria-labelledby="asked-title">
      <h2 id="asked-title">${project.generatorId === null ? "Brief" : "Inputs"}</h2>
      ${
        project.generatorId === null
          ? html`<p class="pre brief">${project.brief}</p>`
          : inputs.length === 0
            ? html`<p class="muted">This run took no inputs.</p>`
            : html`<dl class="inputs">
              ${inputs.map(
                ([field, name]) => html`<div data-input=${name}>
                  <dt>${field?.label ?? name}</dt>
                  <dd class="pre">${valueInWords(field, given[name])}</dd>
                </div>`
              )}
            </dl>`
      }
    </section>`
  }

  private _renderReview(project: Project, review: ProjectReview | null) {
    if (review === null) {
      return project.status === "review"
        ? html`<section class="card review" aria-labelledby="review-title">
            <h2 id="review-title">QA review</h2>
            <p class="muted">The reviewer is reading the work.</p>
          </section>`
        : nothing
    }
    return html`<section class="card review" aria-labelledby="review-title" data-verdict=${review.verdict}>
      <h2 id="review-title">QA review</h2>
      <p>Verdict: ${badge(verdictWords[review.verdict])}</p>
      ${review.notes.trim() === "" ? nothing : html`<p class="pre notes">${review.notes}</p>`}
    </section>`
  }

  private _act(call: (client: NodeClient) => Effect.Effect<Project, unknown>, done: string): Promise<void> {
    return this._acting
      .run(call, (project) => {
        this._watch.applyProject(project)
        return done
      })
      .then(async (ok) => {
        // Either way the page may be behind: a refusal often means the run moved on meanwhile.
        await this._watch.reloadDetail()
        if (ok) await this._watch.reloadTrace()
      })
  }

  /** An edit saved, or refused as made on an old plan: the page shows the plan as it is now. */
  private readonly _planChanged = async () => {
    await this._watch.reloadDetail()
    await this._watch.reloadTrace()
  }

  /** A step run again, here or in a copy of the project, whose page is then opened. */
  private readonly _replay = (event: CustomEvent<NodeEvents["replay-requested"]>) => {
    const { fork, instruction, taskId } = event.detail
    const request = {
      path: { id: this.projectId },
      payload: instruction === "" ? { fromTaskId: taskId } : { fromTaskId: taskId, instruction }
    }
    if (fork) {
      return this._acting
        .run(
          (client) => client.studioProjects.forkProject(request),
          (project) => navigate(`/studio/${encodeURIComponent(project.id)}`)
        )
        .then(() => undefined)
    }
    return this._act(
      (client) => client.studioProjects.replayProject(request),
      "The run goes again from that step; the steps before it are kept."
    )
  }

  private readonly _cancel = (): Promise<void> =>
    this._act(
      (client) => client.studioProjects.cancelProject({ path: { id: this.projectId } }),
      "The run is cancelled. Finished steps are kept; resume it to go on."
    )

  private readonly _resume = (): Promise<void> =>
    this._act(
      (client) => client.studioProjects.resumeProject({ path: { id: this.projectId } }),
      "The run goes on from its last finished step."
    )

  static override styles = [
    sharedStyles,
    containerStyles,
    css`
      /* The title with its state and facts; the run's actions beside it on a wide page. */
      .head {
        display: grid;
        grid-template-columns: minmax(0, 1fr) auto;
        column-gap: var(--node-space-5);
        margin: 0 0 var(--node-space-5);
      }
      .head > :not(.actions) {
        grid-column: 1;
      }
      .head .actions {
        grid-column: 2;
        grid-row: 1 / span 3;
        align-self: start;
      }
      .status {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
        margin: 0 0 var(--node-space-1);
        font-weight: var(--node-font-weight-medium);
      }
      .facts {
        font-size: var(--node-font-size-sm);
        margin: 0;
      }
      @container (max-width: 40rem) {
        .head {
          grid-template-columns: minmax(0, 1fr);
        }
        .head .actions {
          grid-column: 1;
          grid-row: auto;
          margin-top: var(--node-space-3);
        }
      }
      .pre {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .stopped {
        border-left: 4px solid var(--node-danger);
      }
      .inputs {
        display: grid;
        gap: 6px;
        margin: 0;
      }
      .inputs div {
        display: grid;
        grid-template-columns: minmax(6rem, 12rem) minmax(0, 1fr);
        gap: 8px;
      }
      dt {
        color: var(--node-muted);
        font-size: var(--node-font-size-sm);
        font-weight: var(--node-font-weight-semibold);
        overflow-wrap: anywhere;
      }
      dd {
        margin: 0;
      }
      .notes {
        margin: 0;
      }
      @container (max-width: 40rem) {
        .inputs div {
          grid-template-columns: minmax(0, 1fr);
          gap: 0;
        }
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-place": ProjectPlace
  }
}

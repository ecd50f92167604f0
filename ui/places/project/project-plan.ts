/**
 * A project's plan: the steps in order, each with its state, its role (and the team member
 * wearing it), the steps it waits on, and once checked what it saved or why it failed; then the
 * team. A list rather than a table, so it reads on a phone as on a desk. The states change live
 * (the page's watch applies `task.updated`); the list is not a live region, the project's own
 * state is.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { PlanRepair } from "../../../actors/project/contract/plan.ts"
import type { ProjectStatus, Task, Team, TeamMemberView } from "../../../actors/project/contract/records.ts"
import { agentIconPath } from "../../components/emoji-icons.ts"
import { icon } from "../../components/icon.ts"
import { badge, taskStatusWords } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { stepStyles } from "../../styles/step-styles.ts"
import "../../components/node-alert.ts"
import "./project-plan-editor.ts"
import "./project-replay.ts"

/** A run that is over, whose finished steps can be run again (project-replay.ts). */
const over: ReadonlySet<ProjectStatus> = new Set(["done", "failed", "cancelled"])

/** A plan can be edited once it is there and until the run's steps are over (docs/api.md). */
const editable: ReadonlySet<ProjectStatus> = new Set(["running", "failed", "cancelled"])

/** What a checked step saved, from its DeliverableReport (the task's `output`), read defensively. */
const savedInWords = (output: unknown): string => {
  if (typeof output !== "object" || output === null) return ""
  const report = output as { readonly file?: unknown; readonly words?: unknown; readonly repairs?: unknown }
  const parts: Array<string> = []
  if (typeof report.file === "string") parts.push(`Saved ${report.file}`)
  if (typeof report.words === "number" && report.words > 0) parts.push(`${report.words} words`)
  if (typeof report.repairs === "number" && report.repairs > 0)
    parts.push(report.repairs === 1 ? "after 1 repair" : `after ${report.repairs} repairs`)
  return parts.join(" · ")
}

const memberWords = {
  saved: "your saved agent",
  persona: "a persona for this run",
  person: "a person of the crew"
} as const

@customElement("project-plan")
export class ProjectPlan extends LitElement {
  @property({ attribute: false }) accessor tasks: ReadonlyArray<Task> = []

  @property({ attribute: false }) accessor team: Team | null = null

  @property() accessor projectStatus: ProjectStatus = "planning"

  @property() accessor projectId = ""

  @property({ type: Number }) accessor planVersion = 0

  /** The project's owner: the page is theirs, and a gate without a named person is theirs. */
  @property() accessor ownerId = ""

  @state() private accessor _editing = false

  @state() private accessor _said = ""

  @state() private accessor _stale = ""

  protected override render() {
    return html`<section class="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan</h2>
      <node-alert kind="success" .message=${this._said}></node-alert>
      <node-alert .message=${this._stale}></node-alert>
      ${
        this._editing
          ? html`<project-plan-editor
            .projectId=${this.projectId}
            .planVersion=${this.planVersion}
            .projectStatus=${this.projectStatus}
            .tasks=${this.tasks}
            .team=${this.team}
            .ownerId=${this.ownerId}
            @plan-saved=${this._saved}
            @plan-stale=${this._staleNow}
            @plan-edit-closed=${() => (this._editing = false)}
          ></project-plan-editor>`
          : editable.has(this.projectStatus) && this.tasks.length > 0
            ? html`<div class="actions"><button type="button" @click=${this._edit}>Edit plan</button></div>`
            : nothing
      }
      ${
        this.tasks.length === 0
          ? html`<p class="muted">
            ${this.projectStatus === "planning" ? "The plan is being made." : "This run has no steps."}
          </p>`
          : this._renderTasks()
      }
      ${this._renderTeam()}
    </section>`
  }

  private _renderTasks() {
    const titles = new Map(this.tasks.map((task) => [task.id, task.title]))
    const done = this.tasks.filter((task) => task.status === "done").length
    return html`<p class="muted">${done} of ${this.tasks.length} steps done.</p>
      <ol class="steps">
        ${this.tasks.map((task) => {
          const member = this._memberOf(task)
          const saved = savedInWords(task.output)
          return html`<li class="step" data-task-id=${task.id} data-state=${task.status} data-kind=${task.kind}>
            <p class="head">
              <span class="title">${task.title}</span>
              <span class="state">${badge(taskStatusWords[task.status])}</span>
              ${
                task.keptInRun === null
                  ? nothing
                  : html`<span class="kept" title="Kept from an earlier run: not run again">${badge({ label: "Kept", tone: "plain" })}</span>`
              }
            </p>
            <p class="facts">
              ${
                task.kind === "approval"
                  ? html`<span class="gate">${this._gateWords(task)}</span>`
                  : html`<span class="role"
                >${task.role}${
                  member === undefined
                    ? nothing
                    : html` · <span class="avatar">${icon(agentIconPath(member.avatar))}</span>${member.name}`
                }</span
              >`
              }
              <span class="waits"
                >Waits on:
                ${task.dependsOn.length === 0 ? "nothing" : task.dependsOn.map((id) => titles.get(id) ?? id).join("; ")}</span
              >
            </p>
            ${saved === "" ? nothing : html`<p class="muted saved">${saved}</p>`}
            ${
              task.status === "waiting" && task.decisionSignalId !== null
                ? html`<p class="decision">
                    Waiting for your approval of an act on the world:
                    <a href=${`/?signal=${encodeURIComponent(task.decisionSignalId)}`}>decide on your desktop</a>.
                  </p>`
                : nothing
            }
            ${task.error === null ? nothing : html`<p class="error">${task.error}</p>`}
            ${
              task.status === "done" && over.has(this.projectStatus)
                ? html`<project-replay .taskId=${task.id} .stepTitle=${task.title}></project-replay>`
                : nothing
            }
          </li>`
        })}
      </ol>`
  }

  private readonly _edit = () => {
    this._said = ""
    this._stale = ""
    this._editing = true
  }

  private readonly _saved = (event: CustomEvent<ReadonlyArray<PlanRepair>>) => {
    this._editing = false
    const repairs = event.detail
    this._said =
      repairs.length === 0
        ? "The plan is saved."
        : `The plan is saved, repaired: ${repairs.map((repair) => repair.message).join(" ")}`
  }

  private readonly _staleNow = () => {
    this._editing = false
    this._stale =
      "The plan changed while you edited it (the run moved on, or another edit landed). Here it is as it is now: edit it again."
  }

  /** Who a gate waits for, in words. */
  private _gateWords(task: Task) {
    if (task.assigneeBeingId === null || task.assigneeBeingId === this.ownerId) return "Waits for your approval"
    const person = this.team?.members.find((member) => member.agentId === task.assigneeBeingId)
    return `Waits for ${person?.name ?? "a person of the crew"}'s approval`
  }

  private _memberOf(task: Task): TeamMemberView | undefined {
    return task.assigneeAgentId === null
      ? undefined
      : this.team?.members.find((member) => member.agentId === task.assigneeAgentId)
  }

  private _renderTeam() {
    if (this.team === null || this.team.members.length === 0) return nothing
    return html`<h3>Team</h3>
      <ul class="team">
        ${this.team.members.map(
          (member) => html`<li>
            <span class="avatar">${icon(agentIconPath(member.avatar))}</span>
            <span><strong>${member.name}</strong>, ${member.role}</span>
            <span class="muted">(${memberWords[member.source]})</span>
          </li>`
        )}
      </ul>`
  }

  static override styles = [
    sharedStyles,
    stepStyles,
    css`
      .steps {
        margin: 0;
        padding: 0 0 0 var(--node-space-5);
      }
      .steps ::marker {
        color: var(--node-muted);
        font-size: var(--node-font-size-sm);
      }
      .waits {
        color: var(--node-muted);
      }
      .saved,
      .error {
        font-size: var(--node-font-size-sm);
        margin-top: var(--node-space-1);
      }
      .error {
        color: var(--node-danger);
      }
      h3 {
        margin: var(--node-space-5) 0 var(--node-space-2);
      }
      .team {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-2);
        font-size: var(--node-font-size-sm);
      }
      .team li {
        display: flex;
        gap: var(--node-space-2);
        align-items: baseline;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-plan": ProjectPlan
  }
}

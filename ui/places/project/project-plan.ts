/**
 * A project's plan: the steps in order, each with its state, its role (and the team member
 * wearing it), the steps it waits on, and once checked what it saved or why it failed; then the
 * team. A list rather than a table, so it reads on a phone as on a desk. The states change live
 * (the page's watch applies `task.updated`); the list is not a live region, the project's own
 * state is.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { ProjectStatus, Task, Team, TeamMemberView } from "../../../actors/project/contract/records.ts"
import { agentIconPath } from "../../components/emoji-icons.ts"
import { icon } from "../../components/icon.ts"
import { badge, taskStatusWords } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { stepStyles } from "../../styles/step-styles.ts"

/** What a checked step saved, from its DeliverableReport (the task's `output`), read defensively. */
const savedInWords = (output: unknown): string => {
  if (typeof output !== "object" || output === null) return ""
  const report = output as { readonly file?: unknown; readonly words?: unknown; readonly repairs?: unknown }
  const parts: Array<string> = []
  if (typeof report.file === "string") parts.push(`Saved ${report.file}`)
  if (typeof report.words === "number" && report.words > 0) parts.push(`${report.words} words`)
  if (typeof report.repairs === "number" && report.repairs > 0) parts.push(report.repairs === 1 ? "after 1 repair" : `after ${report.repairs} repairs`)
  return parts.join(" · ")
}

const memberWords = { saved: "your saved agent", persona: "a persona for this run", person: "a person of the crew" } as const

@customElement("project-plan")
export class ProjectPlan extends LitElement {
  @property({ attribute: false }) accessor tasks: ReadonlyArray<Task> = []

  @property({ attribute: false }) accessor team: Team | null = null

  @property() accessor projectStatus: ProjectStatus = "planning"

  protected override render() {
    return html`<section class="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan</h2>
      ${this.tasks.length === 0
        ? html`<p class="muted">
            ${this.projectStatus === "planning" ? "The plan is being made." : "This run has no steps."}
          </p>`
        : this._renderTasks()}
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
          return html`<li class="step" data-task-id=${task.id} data-state=${task.status}>
            <p class="head">
              <span class="title">${task.title}</span>
              <span class="state">${badge(taskStatusWords[task.status])}</span>
            </p>
            <p class="facts">
              <span class="role"
                >${task.role}${member === undefined
                  ? nothing
                  : html` · <span class="avatar">${icon(agentIconPath(member.avatar))}</span>${member.name}`}</span
              >
              <span class="waits"
                >Waits on:
                ${task.dependsOn.length === 0 ? "nothing" : task.dependsOn.map((id) => titles.get(id) ?? id).join("; ")}</span
              >
            </p>
            ${saved === "" ? nothing : html`<p class="muted saved">${saved}</p>`}
            ${task.error === null ? nothing : html`<p class="error">${task.error}</p>`}
          </li>`
        })}
      </ol>`
  }

  private _memberOf(task: Task): TeamMemberView | undefined {
    return task.assigneeAgentId === null ? undefined : this.team?.members.find((member) => member.agentId === task.assigneeAgentId)
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

/**
 * The owner's edit of a plan's steps not started yet (PUT /api/studio/projects/:id/plan): move a
 * step up or down, add a step or an approval gate (each waits on the step before it), remove one,
 * choose who does it (the team by role, a saved agent, you, a person of the crew) and its skills.
 * Save answers what the repair pass changed; a plan changed meanwhile (409 plan_changed) is loaded
 * again with a word. Steps started or done are shown above, fixed.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { PlanRepair } from "../../../actors/project/contract/plan.ts"
import type { PlanEdit, ProjectStatus, Task, Team } from "../../../actors/project/contract/records.ts"
import type { AgentSummary } from "../../../extensions/agents/contract/agent.ts"
import { request } from "../../api/client.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

interface Row {
  /** The step's id, or `new-<n>` for one this edit adds. */
  readonly ref: string
  readonly existing: boolean
  readonly title: string
  readonly description: string
  readonly role: string
  readonly skills: ReadonlyArray<string>
  readonly dependsOn: ReadonlyArray<string>
  readonly kind: "work" | "approval"
  /** `auto`, `agent:<id>` or `person:<beingId>`. */
  readonly assignee: string
}

/** As the server decides (plan-edit.ts isFixed): started, done, or failed while the run goes. */
const isFixed = (task: Task, status: ProjectStatus) =>
  task.status === "running" ||
  task.status === "waiting" ||
  task.status === "done" ||
  (task.status === "failed" && status !== "failed" && status !== "cancelled")

const assigneeOf = (task: Task) =>
  !task.pinned
    ? "auto"
    : task.assigneeBeingId !== null
      ? `person:${task.assigneeBeingId}`
      : `agent:${task.assigneeAgentId ?? ""}`

@customElement("project-plan-editor")
export class ProjectPlanEditor extends LitElement {
  @property() accessor projectId = ""

  @property({ type: Number }) accessor planVersion = 0

  @property() accessor projectStatus: ProjectStatus = "running"

  @property({ attribute: false }) accessor tasks: ReadonlyArray<Task> = []

  @property({ attribute: false }) accessor team: Team | null = null

  /** The signed-in owner: "You" among the people a step can go to. */
  @property() accessor ownerId = ""

  @state() private accessor _rows: ReadonlyArray<Row> = []

  @state() private accessor _agents: ReadonlyArray<AgentSummary> = []

  @state() private accessor _skills: ReadonlyArray<string> = []

  @state() private accessor _error = ""

  @state() private accessor _busy = false

  private _added = 0

  override connectedCallback() {
    super.connectedCallback()
    this.reset()
    void request((client) => client.studioAgents.listAgents()).then((result) => {
      if (result.ok) this._agents = result.value
    })
    void request((client) => client.studioSkills.listSkills()).then((result) => {
      if (result.ok) this._skills = result.value.map((skill) => skill.name)
    })
  }

  /** The draft from the plan as it is now. */
  reset() {
    this._rows = this.tasks
      .filter((task) => !isFixed(task, this.projectStatus))
      .map(
        (task): Row => ({
          ref: task.id,
          existing: true,
          title: task.title,
          description: task.description,
          role: task.role,
          skills: task.skills,
          dependsOn: task.dependsOn,
          kind: task.kind,
          assignee: assigneeOf(task)
        })
      )
  }

  protected override render() {
    const fixed = this.tasks.filter((task) => isFixed(task, this.projectStatus))
    return html`<form @submit=${this._save} aria-label="Edit the plan">
      ${
        fixed.length === 0
          ? nothing
          : html`<p class="muted">Started or done, kept as they are: ${fixed.map((task) => task.title).join("; ")}.</p>`
      }
      <ol class="rows">
        ${this._rows.map((row, index) => this._renderRow(row, index))}
      </ol>
      <div class="actions">
        <button type="button" @click=${() => this._add("work")}>Add a step</button>
        <button type="button" @click=${() => this._add("approval")}>Add an approval gate</button>
      </div>
      <node-alert .message=${this._error}></node-alert>
      <div class="actions">
        <button type="submit" ?disabled=${this._busy}>${this._busy ? "Saving…" : "Save the plan"}</button>
        <button type="button" class="secondary" @click=${this._close}>Cancel</button>
      </div>
    </form>`
  }

  private _renderRow(row: Row, index: number) {
    const people = [
      [this.ownerId, "You"] as const,
      ...(this.team?.members ?? [])
        .filter((member) => member.source === "person" && member.agentId !== this.ownerId)
        .map((member) => [member.agentId, member.name] as const)
    ]
    const set = (change: Partial<Row>) => this._set(index, change)
    return html`<li class="row" data-ref=${row.ref} data-kind=${row.kind}>
      <div class="line">
        <label>Step <input name="title" required maxlength="200" .value=${row.title} @input=${(event: Event) => set({ title: (event.target as HTMLInputElement).value })} /></label>
        ${
          row.kind === "approval"
            ? html`<span class="muted">Approval gate</span>`
            : html`<label>Role <input name="role" required maxlength="100" .value=${row.role} @input=${(event: Event) => set({ role: (event.target as HTMLInputElement).value })} /></label>`
        }
        <label>Who
          <select name="assignee" @change=${(event: Event) => set({ assignee: (event.target as HTMLSelectElement).value })}>
            ${row.kind === "approval" ? nothing : html`<option value="auto" ?selected=${row.assignee === "auto"}>Automatic (by role)</option>`}
            ${
              row.kind === "approval"
                ? nothing
                : this._agents.map(
                    (agent) =>
                      html`<option value=${`agent:${agent.id}`} ?selected=${row.assignee === `agent:${agent.id}`}>${agent.name} (agent)</option>`
                  )
            }
            ${people.map(([id, name]) => html`<option value=${`person:${id}`} ?selected=${row.assignee === `person:${id}` || (row.kind === "approval" && row.assignee === "auto" && id === this.ownerId)}>${name}</option>`)}
          </select>
        </label>
      </div>
      ${
        row.kind === "approval" || this._skills.length === 0
          ? nothing
          : html`<details><summary>Skills (${row.skills.length})</summary>
            <div class="skills">
              ${this._skills.map(
                (skill) => html`<label class="skill"><input type="checkbox" .checked=${row.skills.includes(skill)}
                @change=${(event: Event) => set({ skills: (event.target as HTMLInputElement).checked ? [...row.skills, skill] : row.skills.filter((s) => s !== skill) })} />${skill}</label>`
              )}
            </div>
          </details>`
      }
      <div class="actions">
        <button type="button" class="secondary" aria-label=${`Move ${row.title} up`} ?disabled=${index === 0} @click=${() => this._move(index, -1)}>↑</button>
        <button type="button" class="secondary" aria-label=${`Move ${row.title} down`} ?disabled=${index === this._rows.length - 1} @click=${() => this._move(index, 1)}>↓</button>
        <button type="button" class="danger" aria-label=${`Remove ${row.title}`} @click=${() => this._remove(index)}>Remove</button>
      </div>
    </li>`
  }

  private _set(index: number, change: Partial<Row>) {
    this._rows = this._rows.map((row, at) => (at === index ? { ...row, ...change } : row))
  }

  private _move(index: number, by: number) {
    const rows = [...this._rows]
    const [row] = rows.splice(index, 1)
    rows.splice(index + by, 0, row!)
    this._rows = rows
  }

  private _remove(index: number) {
    const ref = this._rows[index]!.ref
    this._rows = this._rows
      .filter((_, at) => at !== index)
      .map((row) => ({ ...row, dependsOn: row.dependsOn.filter((id) => id !== ref) }))
  }

  /** A new step waits on the last step of the plan; a gate so holds what comes after it. */
  private _add(kind: Row["kind"]) {
    const fixed = this.tasks.filter((task) => isFixed(task, this.projectStatus))
    const last = this._rows.at(-1)?.ref ?? fixed.at(-1)?.id
    this._added += 1
    this._rows = [
      ...this._rows,
      {
        ref: `new-${this._added}`,
        existing: false,
        title: kind === "approval" ? "Approve the work so far" : "",
        description: "",
        role: kind === "approval" ? "approver" : "writer",
        skills: [],
        dependsOn: last === undefined ? [] : [last],
        kind,
        assignee: kind === "approval" ? `person:${this.ownerId}` : "auto"
      }
    ]
  }

  private _edits(): Array<PlanEdit> {
    const position = new Map(this._rows.map((row, index) => [row.ref, index]))
    return this._rows.map((row): PlanEdit => {
      const [type, id] = row.assignee.split(/:(.*)/s)
      return {
        ...(row.existing ? { id: row.ref } : {}),
        title: row.title.trim(),
        description: row.description,
        role: row.role.trim() === "" ? "writer" : row.role.trim(),
        skills: row.skills,
        // A step of this edit is named by its place in the list ("#n"): new ones have no id yet.
        dependsOn: row.dependsOn
          .map((ref) => (ref.startsWith("new-") ? `#${position.get(ref) ?? -1}` : ref))
          .filter((ref) => ref !== "#-1"),
        assignee: type === "agent" ? { agentId: id! } : type === "person" ? { personBeingId: id! } : null,
        kind: row.kind
      }
    })
  }

  private readonly _save = async (event: SubmitEvent) => {
    event.preventDefault()
    this._busy = true
    this._error = ""
    const result = await request((client) =>
      client.studioProjects.editPlan({
        path: { id: this.projectId },
        payload: { version: this.planVersion, tasks: this._edits() }
      })
    )
    this._busy = false
    if (result.ok) {
      this.dispatchEvent(
        new CustomEvent<ReadonlyArray<PlanRepair>>("plan-saved", {
          detail: result.value.repairs,
          bubbles: true,
          composed: true
        })
      )
      return
    }
    if (result.failure.code === "plan_changed") {
      this.dispatchEvent(new CustomEvent("plan-stale", { bubbles: true, composed: true }))
      return
    }
    this._error = result.failure.message
  }

  private readonly _close = () =>
    this.dispatchEvent(new CustomEvent("plan-edit-closed", { bubbles: true, composed: true }))

  static override styles = [
    sharedStyles,
    css`
      .rows {
        margin: 0;
        padding: 0 0 0 var(--node-space-5);
        display: grid;
        gap: var(--node-space-3);
      }
      .line {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-2);
        align-items: end;
      }
      .line label {
        flex: 1 1 10rem;
      }
      .skills {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-2);
        font-size: var(--node-font-size-sm);
      }
      .skill {
        display: inline-flex;
        gap: var(--node-space-1);
        align-items: center;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-plan-editor": ProjectPlanEditor
  }
}

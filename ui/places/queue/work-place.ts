/**
 * Work, at `/work`: every open step (waiting, ready, working or blocked) across the person's
 * projects in one list, people's and agents' alike, each with its project's link, and the steps the
 * person holds in others' projects as a seat of a crew, which they hand in here, and the approval
 * gates they hold, which they approve or reject here. It loads again
 * when a step or a project of theirs changes, and on every `hello` of the live channel.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { QueueItem } from "../../../actors/project/contract/records.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import { coalesce } from "../../components/coalesce.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { badge, taskStatusWords } from "../../components/studio-labels.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { stepStyles } from "../../styles/step-styles.ts"
import "./work-approve.ts"
import "./work-hand-in.ts"

@customElement("work-place")
export class WorkPlace extends LitElement {
  /** Who is signed in: their own steps as a person get the hand-in form. */
  @property({ attribute: false }) accessor being: Being | null = null

  private readonly _queue = new PagedResource(this, (client, urlParams) => client.studioProjects.queue({ urlParams }), {
    loadOnConnect: false
  })

  private readonly _reloadSoon = coalesce(() => this._queue.reload())

  // Named, though nothing reads them: they load and listen while the place is on screen.
  private readonly _loading = new LiveLoad(this, () => this._reloadSoon())

  private readonly _live = new LiveEvents(this, {
    "task.updated": () => this._reloadSoon(),
    "project.updated": () => this._reloadSoon()
  })

  protected override render() {
    return html`
      <h1>Work</h1>
      <p class="muted">Every open step across your projects, in the order they were started.</p>
      <section class="card" aria-labelledby="queue-title">
        <h2 id="queue-title">Open steps</h2>
        <node-alert .message=${this._queue.error}></node-alert>
        ${this._queue.render("Loading open steps…", (queue) => this._renderQueue(queue))}
        ${this._queue.renderMore("steps")}
      </section>
    `
  }

  private _renderQueue(queue: ReadonlyArray<QueueItem>) {
    if (queue.length === 0)
      return html`<p class="muted">Nothing is open. <a href="/studio">Start something in the Studio.</a></p>`
    return html`<ul class="steps">
      ${queue.map(
        ({
          assignee,
          kind,
          projectId,
          projectTitle,
          task
        }) => html`<li class="step" data-task-id=${task.id} data-state=${task.status} data-kind=${kind}>
          <p class="head">
            <span class="title">${task.title}</span>
            ${kind === "approval" ? badge({ label: "Approval", tone: "plain" }) : nothing}
            ${badge(taskStatusWords[task.status])}
          </p>
          <p class="facts">
            <span>In <a href=${`/studio/${encodeURIComponent(projectId)}`}>${projectTitle}</a></span>
            <span class="muted">${this._holder(assignee, task.assigneeBeingId)} (${task.role})</span>
            ${
              task.dueAt === null
                ? nothing
                : html`<span>Due <time datetime=${task.dueAt}>${formatDateTime(task.dueAt)}</time></span>`
            }
          </p>
          ${task.error === null ? nothing : html`<p class="error">${task.error}</p>`}
          ${
            !this._mine(task.assigneeBeingId) || task.status !== "running"
              ? nothing
              : kind === "approval"
                ? html`<work-approve .taskId=${task.id} .taskTitle=${task.title}></work-approve>`
                : html`<work-hand-in .taskId=${task.id} .taskTitle=${task.title}></work-hand-in>`
          }
        </li>`
      )}
    </ul>`
  }

  private _mine(assigneeBeingId: string | null) {
    return this.being !== null && assigneeBeingId === this.being.id
  }

  private _holder(assignee: QueueItem["assignee"], assigneeBeingId: string | null) {
    if (assignee === "agent") return "An agent"
    return this._mine(assigneeBeingId) ? "You" : "A person"
  }

  static override styles = [
    sharedStyles,
    stepStyles,
    css`
      .steps {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .step:first-child {
        border-top: none;
        padding-top: 0;
      }
      .error {
        font-size: var(--node-font-size-sm);
        color: var(--node-danger);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "work-place": WorkPlace
  }
}

/**
 * The trace: everything the run did, oldest first, as it happens: plans, thinking, tool calls
 * and their results, messages, outputs, errors. Each event says when, what kind, who (the team
 * member) and on which step, in text only (what a model wrote is never read as HTML); its data,
 * when it has any, folds out as JSON. The list scrolls in its own box and follows new events
 * while the person is at its end. It is not a live region: a run writes too much to read out.
 */
import { css, html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property } from "lit/decorators.js"
import { repeat } from "lit/directives/repeat.js"
import type { Task, Team, TraceEvent } from "../../../actors/project/contract/records.ts"
import "../../components/node-alert.ts"
import { traceKindLabels } from "../../components/studio-labels.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** The most of an event's data shown; a file's whole content can travel in a tool call. */
const DATA_SHOWN = 4000

const timeOnly = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" })

const timeOf = (iso: string): string => {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : timeOnly.format(date)
}

const dataText = (data: unknown): string => {
  const text = JSON.stringify(data, null, 2) ?? ""
  return text.length <= DATA_SHOWN
    ? text
    : `${text.slice(0, DATA_SHOWN)}\n… (${text.length - DATA_SHOWN} more characters)`
}

/** How close to the end of the box still counts as being at its end. */
const FOLLOW_SLACK_PX = 48

@customElement("project-trace")
export class ProjectTrace extends LitElement {
  @property({ attribute: false }) accessor events: ReadonlyArray<TraceEvent> = []

  @property({ attribute: false }) accessor tasks: ReadonlyArray<Task> = []

  @property({ attribute: false }) accessor team: Team | null = null

  /** Why the trace could not be loaded, in the node's words. */
  @property() accessor error = ""

  /** Whether the box was at its end before this update, so it stays there. */
  private _following = true

  protected override willUpdate(changed: PropertyValues<this>): void {
    const box = this.renderRoot.querySelector(".trace-box")
    if (changed.has("events") && box instanceof HTMLElement) {
      this._following = box.scrollHeight - box.scrollTop - box.clientHeight <= FOLLOW_SLACK_PX
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    const box = this.renderRoot.querySelector(".trace-box")
    if (changed.has("events") && this._following && box instanceof HTMLElement) box.scrollTop = box.scrollHeight
  }

  protected override render() {
    return html`<section class="card" aria-labelledby="trace-title">
      <h2 id="trace-title">Trace <span class="muted count">(${this.events.length} ${this.events.length === 1 ? "event" : "events"})</span></h2>
      <node-alert .message=${this.error}></node-alert>
      ${
        this.events.length === 0
          ? html`<p class="muted">Nothing has happened yet.</p>`
          : html`<div class="trace-box" tabindex="0" role="region" aria-label="Trace events">
            <ol class="trace">
              ${repeat(
                this.events,
                (event) => event.id,
                (event) => this._renderEvent(event)
              )}
            </ol>
          </div>`
      }
    </section>`
  }

  private _renderEvent(event: TraceEvent) {
    const member =
      event.agentId === null ? undefined : this.team?.members.find((candidate) => candidate.agentId === event.agentId)
    const task = event.taskId === null ? undefined : this.tasks.find((candidate) => candidate.id === event.taskId)
    return html`<li class="event" data-kind=${event.kind} data-event-id=${event.id}>
      <p class="line">
        <time datetime=${event.at}>${timeOf(event.at)}</time>
        <span class="kind">${traceKindLabels[event.kind]}</span>
        ${member === undefined ? nothing : html`<span class="who">${member.name}</span>`}
        ${task === undefined ? nothing : html`<span class="muted step">on “${task.title}”</span>`}
      </p>
      <p class="text">${event.text}</p>
      ${
        event.data === null || event.data === undefined
          ? nothing
          : html`<details>
            <summary>Details</summary>
            <pre>${dataText(event.data)}</pre>
          </details>`
      }
    </li>`
  }

  static override styles = [
    sharedStyles,
    css`
      .count {
        font-weight: 400;
        font-size: 0.9rem;
      }
      .trace-box {
        max-height: 32rem;
        overflow-y: auto;
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
        background: var(--node-surface-sunken);
      }
      .trace {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .event {
        padding: 8px 10px;
        border-bottom: 1px solid var(--node-border);
      }
      .event:last-child {
        border-bottom: none;
      }
      .event[data-kind="error"] {
        border-left: 4px solid var(--node-danger);
      }
      .event {
        padding: var(--node-space-2) var(--node-space-3);
      }
      .line {
        display: flex;
        flex-wrap: wrap;
        gap: 2px var(--node-space-2);
        margin: 0 0 2px;
        font-size: var(--node-font-size-xs);
      }
      time {
        font-family: var(--node-font-mono);
        color: var(--node-muted);
      }
      .kind {
        font-weight: 700;
      }
      .event[data-kind="error"] .kind {
        color: var(--node-danger);
      }
      .text {
        margin: 0;
        font-size: var(--node-font-size-sm);
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      details {
        margin-top: 4px;
        font-size: 0.85rem;
      }
      pre {
        margin: 4px 0 0;
        padding: 8px;
        overflow-x: auto;
        background: var(--node-surface);
        border-radius: 4px;
        font-family: var(--node-font-mono);
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "project-trace": ProjectTrace
  }
}

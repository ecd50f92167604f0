/**
 * The agenda: a day or a week (Monday first) of events, each occurrence of a repeating one, and
 * the open due-dated signals the node merges in (`GET /api/twin/calendar?from=&to=`); adding an
 * event (title, start, end, a repeat preset as an RRULE, a reminder) and deleting one after a
 * confirmation (a repeating event goes whole).
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, query, state } from "lit/decorators.js"
import type { AgendaEntry } from "../../../extensions/time/contract/calendar.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import {
  addDays,
  dayKey,
  formatDay,
  formatShortDay,
  formatTime,
  instantOf,
  startOfDay,
  startOfWeek
} from "./twin-time.ts"

type View = "day" | "week"

const repeats: ReadonlyArray<readonly [string, string]> = [
  ["", "Does not repeat"],
  ["FREQ=DAILY", "Every day"],
  ["FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "Every weekday"],
  ["FREQ=WEEKLY", "Every week"],
  ["FREQ=MONTHLY", "Every month"]
]

@customElement("twin-agenda")
export class TwinAgenda extends LitElement {
  @state() private accessor _view: View = "week"

  /** A moment inside the day or week shown. */
  @state() private accessor _anchor = new Date()

  private readonly _agenda = new ApiResource(this, (client) => {
    const [from, to] = this._range()
    return client.twinTime.agenda({ urlParams: { from: from.toISOString(), to: to.toISOString() } })
  })

  private readonly _changing = new ApiAction(this)

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  private _range(): readonly [Date, Date] {
    const from = this._view === "day" ? startOfDay(this._anchor) : startOfWeek(this._anchor)
    return [from, addDays(from, this._view === "day" ? 1 : 7)]
  }

  protected override render() {
    const [from, to] = this._range()
    return html`<div class="split">
      <section class="card" aria-labelledby="agenda-title">
        <div class="card-head">
          <h2 id="agenda-title">${this._view === "day" ? formatDay(from) : `Week of ${formatDay(from)}`}</h2>
        </div>
        <div class="toolbar">
          <div class="actions" role="group" aria-label="View">
            <button class="secondary" type="button" aria-pressed=${this._view === "day"} @click=${() => this._show("day", this._anchor)}>Day</button>
            <button class="secondary" type="button" aria-pressed=${this._view === "week"} @click=${() => this._show("week", this._anchor)}>Week</button>
          </div>
          <div class="actions" role="group" aria-label="Move in time">
            <button class="secondary" type="button" aria-label=${this._view === "day" ? "Previous day" : "Previous week"} @click=${() => this._step(-1)}>‹</button>
            <button class="secondary" type="button" @click=${() => this._show(this._view, new Date())}>Today</button>
            <button class="secondary" type="button" aria-label=${this._view === "day" ? "Next day" : "Next week"} @click=${() => this._step(1)}>›</button>
          </div>
        </div>
        <node-alert .message=${this._changing.error || this._agenda.error}></node-alert>
        <node-alert kind="success" .message=${this._changing.notice}></node-alert>
        ${this._agenda.render("Loading the agenda…", (entries) => this._renderDays(entries, from, to))}
        <confirm-dialog></confirm-dialog>
      </section>
      <section class="card" aria-labelledby="event-title">
        <h2 id="event-title">Add an event</h2>
        <form @submit=${this._add}>
          <label>Title <input name="title" required maxlength="200" autocomplete="off" /></label>
          <label>Starts <input name="startAt" type="datetime-local" required /></label>
          <label>Ends (optional) <input name="endAt" type="datetime-local" /></label>
          <label
            >Repeats
            <select name="recurrence">
              ${repeats.map(([rule, label]) => html`<option value=${rule}>${label}</option>`)}
            </select>
          </label>
          <label class="check"><input name="remind" type="checkbox" value="yes" /> Remind me when it starts</label>
          <div class="actions"><button type="submit" ?disabled=${this._changing.busy}>Add the event</button></div>
        </form>
      </section>
    </div>`
  }

  private _renderDays(entries: ReadonlyArray<AgendaEntry>, from: Date, to: Date) {
    const days: Array<Date> = []
    for (let day = from; day < to; day = addDays(day, 1)) days.push(day)
    const byDay = new Map<string, Array<AgendaEntry>>()
    for (const entry of [...entries].sort((a, b) => a.startAt.localeCompare(b.startAt))) {
      const key = dayKey(new Date(entry.startAt))
      byDay.set(key, [...(byDay.get(key) ?? []), entry])
    }
    const today = dayKey(new Date())
    return html`<div class="days">
      ${days.map((day) => {
        const onDay = byDay.get(dayKey(day)) ?? []
        const heading = html`<h3>
          ${formatShortDay(day)}${dayKey(day) === today ? html` <span class="badge" data-tone="active">Today</span>` : nothing}
        </h3>`
        return html`<div class=${onDay.length === 0 ? "day empty" : "day"}>
          ${this._view === "week" ? heading : nothing}
          ${onDay.length === 0 ? html`<p class="muted">Nothing planned.</p>` : html`<ul class="entries">${onDay.map((entry) => this._renderEntry(entry))}</ul>`}
        </div>`
      })}
    </div>`
  }

  private _renderEntry(entry: AgendaEntry) {
    const repeating = entry.origin === "event" && entry.id.includes("@")
    return html`<li class="entry" data-entry-id=${entry.id}>
      <span class="when">${entry.allDay ? "All day" : `${formatTime(entry.startAt)}${entry.endAt === null ? "" : `–${formatTime(entry.endAt)}`}`}</span>
      <span class="what">
        <strong>${entry.title}</strong>
        ${entry.origin === "signal" ? html`<span class="badge" data-tone="active">Signal due</span>` : nothing}
        ${repeating ? html`<span class="badge">Repeats</span>` : nothing}
        ${entry.body === "" ? nothing : html`<span class="muted body">${entry.body}</span>`}
      </span>
      ${
        entry.eventId === null
          ? nothing
          : html`<button class="danger" type="button" aria-label=${`Delete the event “${entry.title}”`} ?disabled=${this._changing.busy} @click=${() => this._delete(entry)}>
            Delete
          </button>`
      }
    </li>`
  }

  private _show(view: View, anchor: Date): void {
    this._view = view
    this._anchor = anchor
    void this._agenda.reload()
  }

  private _step(direction: number): void {
    this._show(this._view, addDays(this._anchor, direction * (this._view === "day" ? 1 : 7)))
  }

  private readonly _add = onSubmit(async ({ field, clear }) => {
    const startAt = instantOf(field("startAt"))
    if (startAt === null) return this._changing.fail("Give the event a start.")
    const endAt = instantOf(field("endAt"))
    const recurrence = field("recurrence")
    const added = await this._changing.run(
      (client) =>
        client.twinTime.createEvent({
          payload: {
            title: field("title"),
            startAt,
            ...(endAt === null ? {} : { endAt }),
            ...(recurrence === "" ? {} : { recurrence }),
            remind: field("remind") === "yes"
          }
        }),
      (event) => `Added “${event.title}”${event.signalId === null ? "" : ", with a reminder"}.`
    )
    if (!added) return
    clear()
    // Show the day the event is on, in the view chosen.
    this._show(this._view, new Date(startAt))
  })

  private async _delete(entry: AgendaEntry): Promise<void> {
    if (entry.eventId === null) return
    const sure = await this._confirm.ask({
      title: "Delete this event?",
      message: entry.id.includes("@")
        ? `“${entry.title}” is deleted with every time it repeats.`
        : `“${entry.title}” is deleted.`,
      confirm: "Delete the event"
    })
    if (!sure) return
    const eventId = entry.eventId
    await this._changing.run(
      (client) => client.twinTime.deleteEvent({ path: { id: eventId } }),
      () => `“${entry.title}” is deleted.`
    )
    await this._agenda.reload()
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    css`
      .toolbar {
        display: flex;
        flex-wrap: wrap;
        justify-content: space-between;
        gap: var(--node-space-2);
        margin: 0 0 var(--node-space-4);
      }
      button[aria-pressed="true"] {
        background: var(--node-accent-soft);
        color: var(--node-accent-soft-text);
        border-color: var(--node-accent);
      }
      .day {
        padding: var(--node-space-2) 0;
        border-top: 1px solid var(--node-border);
      }
      .day:first-child {
        border-top: none;
      }
      .day h3 {
        margin: 0 0 var(--node-space-1);
      }
      .day.empty {
        display: flex;
        gap: var(--node-space-3);
        align-items: baseline;
      }
      .day.empty h3 {
        flex: none;
      }
      .day.empty p {
        margin: 0;
        font-size: var(--node-font-size-sm);
      }
      .entries {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .entry {
        display: grid;
        grid-template-columns: 10rem minmax(0, 1fr) auto;
        gap: var(--node-space-3);
        align-items: center;
        padding: var(--node-space-1) 0;
      }
      .when {
        white-space: nowrap;
        font-variant-numeric: tabular-nums;
        color: var(--node-muted);
      }
      .what {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-1) var(--node-space-2);
        align-items: center;
        overflow-wrap: anywhere;
      }
      .body {
        flex-basis: 100%;
        font-size: var(--node-font-size-sm);
      }
      .check {
        display: flex;
        gap: var(--node-space-2);
        align-items: center;
        font-weight: var(--node-font-weight-regular);
      }
      @container (max-width: 30rem) {
        .entry {
          grid-template-columns: minmax(0, 1fr) auto;
        }
        .when {
          grid-column: 1 / -1;
        }
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-agenda": TwinAgenda
  }
}

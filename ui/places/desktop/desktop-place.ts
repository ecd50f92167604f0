/**
 * The desktop, at `/`: the person's widgets in up to three columns, as their stored layout
 * places them (one column on a narrow screen). The desktop holds the open signals for its
 * widgets and keeps them live: a `signal.created` appears at once (and is announced, an urgent
 * one assertively), a `signal.updated` that closes a signal removes it, in every tab of the
 * person, and each `hello` of the live channel loads the list again to catch up on what came
 * while the tab was not connected.
 *
 * "Arrange widgets" shows buttons on each widget to move it a column left or right or a place
 * up or down (keyboard and touch alike; there is no dragging); each move stores the whole
 * layout with PUT at once.
 *
 * A widget the twin suggests (`widget.suggest`) shows above the widgets until the person adds it
 * (at the foot of the shortest column, stored like a move) or dismisses it. Suggestions live in
 * the open tab only: the node does not keep them.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import { repeat } from "lit/directives/repeat.js"
import type { Signal } from "../../../actors/being/contract/signal.ts"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { Widget } from "../../../extensions/desktop/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { installedPlugins } from "../../api/installed-plugins.ts"
import "../../components/node-alert.ts"
import { LiveEvents } from "../../live/live-controllers.ts"
import type { NodeEventMap } from "../../shell/events.ts"
import "./desktop-now.ts"
import "./desktop-signals.ts"
import "./desktop-suggestions.ts"
import "./first-steps.ts"
import type { WidgetSuggestion } from "./desktop-suggestions.ts"
import { OpenSignals } from "./open-signals.ts"
import { canMove, columnsOf, type Move, moveWidget } from "./widget-layout.ts"
import "./widget-picker.ts"
import type { WidgetChoice } from "./widget-picker.ts"
import "../module/framed-document.ts"
import { framedExtras, type FramedExtra } from "../module/plugin-extras.ts"
import { desktopPlaceStyles } from "./desktop-place-styles.ts"

const widgetTitles: Readonly<Record<string, string>> = { "core.now": "Now", "core.signals": "Signals" }

const moves: ReadonlyArray<readonly [Move, string]> = [
  ["left", "Left"],
  ["right", "Right"],
  ["up", "Up"],
  ["down", "Down"]
]

/** Words for screen readers about a signal that just arrived; the newest few stay in the live region. */
interface Announcement {
  readonly key: number
  readonly words: string
}

const ANNOUNCEMENTS_KEPT = 3

@customElement("desktop-place")
export class DesktopPlace extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  /** The signal a link named (`/?signal=<id>`): the signals widget marks it and brings it into view. */
  @property() accessor signalId = ""

  private readonly _layout = new ApiResource(this, (client) => client.desktop.getWidgets())
  /** The installed plugins: their widgets draw in frames, and the picker offers them. */
  private readonly _plugins = new ApiResource(this, installedPlugins, { reloadOn: ["plugins-changed"] })

  private _pluginWidgets(): ReadonlyArray<FramedExtra> {
    return framedExtras(this._plugins.value ?? []).filter((extra) => extra.kind === "widget")
  }

  private readonly _widgetTitle = (type: string): string =>
    widgetTitles[type] ?? this._pluginWidgets().find((widget) => widget.name === type)?.title ?? type

  private _titleOf(widget: Widget): string {
    return (
      widgetTitles[widget.type] ??
      this._pluginWidgets().find((found) => found.name === widget.type)?.title ??
      "Unavailable widget"
    )
  }

  private _choices(): ReadonlyArray<WidgetChoice> {
    return [
      ...Object.entries(widgetTitles).map(([type, title]) => ({ type, title, from: null })),
      ...this._pluginWidgets().map((widget) => ({ type: widget.name, title: widget.title, from: widget.pluginName }))
    ]
  }

  private readonly _signals = new OpenSignals(this)

  private readonly _arranging = new ApiAction(this)

  // Named, though nothing reads it: it listens while the desktop is on screen.
  private readonly _live = new LiveEvents(this, {
    "signal.created": ({ signal }) => {
      this._signals.apply(signal)
      if (signal.status === "open") this._announce(signal)
    },
    "signal.updated": ({ signal }) => this._signals.apply(signal),
    "widget.suggest": ({ widgetType, reason }) => {
      this._suggestions = [
        ...this._suggestions.filter((shown) => shown.widgetType !== widgetType),
        { widgetType, reason }
      ]
    }
  })

  @state() private accessor _suggestions: ReadonlyArray<WidgetSuggestion> = []

  @state() private accessor _arrangeMode = false

  @state() private accessor _polite: ReadonlyArray<Announcement> = []

  @state() private accessor _assertive: ReadonlyArray<Announcement> = []

  private _announced = 0

  /** A save is under way; a move meanwhile is saved after it, with the layout as it is then. */
  private _saving = false

  private _saveAgain = false

  /** What the last move did, in words: the notice once the node has stored it. */
  private _moveWords = ""

  protected override render() {
    const being = this.being
    return html`
      <header class="head">
        <div>
          <h1>Desktop</h1>
          ${
            being === null
              ? nothing
              : html`<p class="signed-in-as muted">Signed in as <strong>${being.displayName}</strong> (@${being.handle})</p>`
          }
        </div>
        ${
          this._layout.value === null
            ? nothing
            : html`<div class="head-actions">
              <widget-picker .choices=${this._choices()} ?busy=${this._plugins.value === null} @widget-suggestion=${this._onSuggestion}></widget-picker>
              <button class="secondary" type="button" @click=${this._toggleArrange}>
                ${this._arrangeMode ? "Done arranging" : "Arrange widgets"}
              </button>
            </div>`
        }
      </header>
      <div class="sr-only" role="status" aria-live="polite">
        ${repeat(
          this._polite,
          (item) => item.key,
          (item) => html`<p>${item.words}</p>`
        )}
      </div>
      <div class="sr-only" aria-live="assertive">
        ${repeat(
          this._assertive,
          (item) => item.key,
          (item) => html`<p>${item.words}</p>`
        )}
      </div>
      <node-alert .message=${this._arranging.error || this._layout.error}></node-alert>
      <node-alert kind="success" .message=${this._arranging.notice}></node-alert>
      ${
        this._arrangeMode
          ? html`<p class="muted">Move each widget with its buttons. The desktop keeps the layout after every move.</p>`
          : nothing
      }
      ${being?.isOwner === true ? html`<first-steps .beingId=${being.id} ?widgetsStored=${this._layout.value?.updatedAt != null}></first-steps>` : nothing}
      <desktop-suggestions
        .suggestions=${this._suggestions}
        .titleOf=${this._widgetTitle}
        ?busy=${this._layout.value === null}
        @widget-suggestion=${this._onSuggestion}
      ></desktop-suggestions>
      ${this._layout.render("Loading your desktop…", (layout) => this._renderColumns(layout.widgets))}
    `
  }

  private _renderColumns(widgets: ReadonlyArray<Widget>) {
    const columns = columnsOf(widgets)
      .map((column, index) => ({ index, widgets: column }))
      .filter((column) => this._arrangeMode || column.widgets.length > 0)
    if (columns.length === 0) return html`<p class="muted">Your desktop has no widgets.</p>`
    return html`<div
      class="columns count-${columns.length}"
      @signal-changed=${this._onSignalChanged}
      @signals-stale=${this._onSignalsStale}
    >
      ${columns.map(
        (column) => html`<div class="column" data-column=${column.index}>
          ${
            column.widgets.length === 0
              ? html`<p class="muted empty-column">Column ${column.index + 1} is empty.</p>`
              : repeat(
                  column.widgets,
                  (widget) => widget.id,
                  (widget, index) => this._renderWidget(widget, column.index, index, column.widgets.length)
                )
          }
        </div>`
      )}
    </div>`
  }

  private _renderWidget(widget: Widget, column: number, index: number, count: number) {
    const title = this._titleOf(widget)
    const headingId = `widget-${widget.id}`
    return html`<section class="card widget" data-widget-id=${widget.id} data-widget-type=${widget.type} aria-labelledby=${headingId}>
      <div class="widget-head">
        <h2 id=${headingId}>${title}</h2>
        ${this._arrangeMode ? html`<span class="muted position">Column ${column + 1}, place ${index + 1} of ${count}</span>` : nothing}
      </div>
      ${
        this._arrangeMode
          ? html`<div class="moves" role="group" aria-label=${`Move ${title}`}>
            ${moves.map(
              ([move, label]) => html`<button
                class="secondary"
                type="button"
                data-move=${move}
                aria-label=${`Move ${title} ${move}`}
                ?disabled=${!canMove(move, column, index, count)}
                @click=${() => this._move(widget, move)}
              >
                ${label}
              </button>`
            )}
          </div>`
          : nothing
      }
      ${this._renderContent(widget)}
    </section>`
  }

  private _renderContent(widget: Widget) {
    switch (widget.type) {
      case "core.now":
        return html`<desktop-now></desktop-now>`
      case "core.signals":
        return html`<desktop-signals
          .signals=${this._signals.signals}
          .loading=${this._signals.loading}
          .error=${this._signals.error}
          .focusId=${this.signalId}
        ></desktop-signals>`
      default: {
        const framed = this._pluginWidgets().find((found) => found.name === widget.type)
        if (framed !== undefined) {
          return html`<framed-document .pluginId=${framed.pluginId} .extensionId=${framed.extensionId} .label=${framed.title}></framed-document>`
        }
        if (this._plugins.value === null && this._plugins.error === "")
          return html`<p class="muted" role="status">Loading…</p>`
        // A plugin uninstalled since: the widget is gone, the desktop goes on.
        return html`<p class="unavailable">This widget is not available.</p>
          <p class="muted"><code>${widget.type}</code></p>`
      }
    }
  }

  private readonly _toggleArrange = (): void => {
    this._arrangeMode = !this._arrangeMode
    // The words about the last move belong to arranging; a failed save's stay until the next action.
    this._arranging.notice = ""
  }

  private async _move(widget: Widget, move: Move): Promise<void> {
    const layout = this._layout.value
    if (layout === null) return
    const widgets = moveWidget(layout.widgets, widget.id, move)
    if (widgets === null) return
    this._layout.replace({ ...layout, widgets })
    const [column, place] = positionOf(widgets, widget.id)
    this._moveWords = `${this._titleOf(widget)} is now in column ${column + 1}, place ${place + 1}.`
    await this.updateComplete
    this._refocus(widget.id, move)
    await this._save()
  }

  /** Stores the layout on screen; moves made while a save runs are stored right after it, all at once. */
  private async _save(): Promise<void> {
    if (this._saving) {
      this._saveAgain = true
      return
    }
    this._saving = true
    let saved: boolean
    do {
      this._saveAgain = false
      const widgets = this._layout.value?.widgets ?? []
      saved = await this._arranging.run(
        (client) => client.desktop.putWidgets({ payload: { widgets } }),
        (layout) => {
          if (!this._saveAgain) this._layout.replace(layout)
          return this._moveWords
        }
      )
    } while (saved && this._saveAgain)
    this._saving = false
    // The layout on screen is not the node's: show the node's again (the alert says why).
    if (!saved) await this._layout.reload()
  }

  /** The moved widget's section was drawn anew in its new column: give the keyboard its buttons back. */
  private _refocus(id: string, move: Move): void {
    const section = [...this.renderRoot.querySelectorAll<HTMLElement>("section.widget")].find(
      (candidate) => candidate.dataset.widgetId === id
    )
    const buttons = [...(section?.querySelectorAll<HTMLButtonElement>("button[data-move]") ?? [])]
    const target =
      buttons.find((button) => button.dataset.move === move && !button.disabled) ??
      buttons.find((button) => !button.disabled)
    target?.focus()
  }

  private _announce(signal: Signal): void {
    const item = {
      key: ++this._announced,
      words: `${signal.priority === "urgent" ? "Urgent signal" : "New signal"}: ${signal.title}`
    }
    if (signal.priority === "urgent") this._assertive = [...this._assertive, item].slice(-ANNOUNCEMENTS_KEPT)
    else this._polite = [...this._polite, item].slice(-ANNOUNCEMENTS_KEPT)
  }

  /**
   * Adds the suggested widget at the foot of the shortest column and stores the layout, or only forgets the suggestion.
   */
  private readonly _onSuggestion = async (event: NodeEventMap["widget-suggestion"]): Promise<void> => {
    const { widgetType, accept } = event.detail
    this._suggestions = this._suggestions.filter((shown) => shown.widgetType !== widgetType)
    const layout = this._layout.value
    if (!accept || layout === null) return
    const columns = columnsOf(layout.widgets)
    const column = columns.reduce(
      (shortest, widgets, index) => (widgets.length < columns[shortest].length ? index : shortest),
      0
    )
    const widget: Widget = {
      id: `w-${crypto.randomUUID().slice(0, 8)}`,
      type: widgetType,
      column,
      order: columns[column].length
    }
    this._layout.replace({ ...layout, widgets: [...layout.widgets, widget] })
    this._moveWords = `${this._widgetTitle(widgetType)} is on your desktop, in column ${column + 1}.`
    await this._save()
  }

  private readonly _onSignalChanged = (event: NodeEventMap["signal-changed"]): void => {
    this._signals.apply(event.detail.signal)
  }

  private readonly _onSignalsStale = (): void => {
    void this._signals.reload()
  }

  static override styles = desktopPlaceStyles
}

const positionOf = (widgets: ReadonlyArray<Widget>, id: string): readonly [number, number] => {
  const widget = widgets.find((candidate) => candidate.id === id)
  return widget === undefined ? [0, 0] : [widget.column, widget.order]
}

declare global {
  interface HTMLElementTagNameMap {
    "desktop-place": DesktopPlace
  }
}

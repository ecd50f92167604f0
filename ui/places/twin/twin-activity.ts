/**
 * What the twin did, newest first: learned, indexed a file, read mail, thought… Live: a
 * `twin.activity` event goes on top at once; every `hello` of the live channel loads the list
 * again, which is how a tab that was away catches up.
 */
import { css, html, LitElement } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { TwinActivity, TwinActivityKind } from "../../../extensions/twin/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const kindWords: Record<TwinActivityKind, string> = {
  learned: "Learning",
  read_email: "Mail",
  indexed_file: "Files",
  browsed: "Browsing",
  sent: "Sent",
  scheduled: "Schedule",
  thought: "Thought",
  mcp: "Assistants"
}

type Shown = Pick<TwinActivity, "kind" | "summary" | "at">

@customElement("twin-activity")
export class TwinActivityList extends LitElement {
  private readonly _activity = new ApiResource(
    this,
    (client) => client.twin.listActivity({ urlParams: { limit: 50, offset: 0 } }),
    { loadOnConnect: false }
  )

  /** What arrived live since the last load, newest first. */
  @state() private accessor _arrived: ReadonlyArray<Shown> = []

  private readonly _load = new LiveLoad(this, () => {
    this._arrived = []
    void this._activity.reload()
  })

  private readonly _live = new LiveEvents(this, {
    "twin.activity": ({ kind, summary, at }) => {
      this._arrived = [{ kind, summary, at }, ...this._arrived]
    }
  })

  protected override render() {
    return html`<section class="card" aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <p class="muted">What your twin did, newest first. New activity appears as it happens.</p>
      <node-alert .message=${this._activity.error}></node-alert>
      ${this._activity.render("Loading activity…", (listed) => this._renderList([...this._arrived, ...listed]))}
    </section>`
  }

  private _renderList(items: ReadonlyArray<Shown>) {
    if (items.length === 0)
      return html`<p class="muted">Nothing yet. Your twin writes here when it learns, reads or thinks.</p>`
    return html`<ol class="activity">
      ${items.map(
        (item) => html`<li>
          <span class="badge">${kindWords[item.kind]}</span>
          <span class="summary">${item.summary}</span>
          <time class="muted" datetime=${item.at}>${formatDateTime(item.at)}</time>
        </li>`
      )}
    </ol>`
  }

  static override styles = [
    sharedStyles,
    css`
      .activity {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .activity li {
        display: grid;
        grid-template-columns: auto minmax(0, 1fr);
        gap: var(--node-space-1) var(--node-space-3);
        align-items: baseline;
        padding: var(--node-space-2) 0;
        border-top: 1px solid var(--node-border);
      }
      .activity li:first-child {
        border-top: none;
      }
      .summary {
        overflow-wrap: anywhere;
      }
      time {
        grid-column: 2;
        font-size: var(--node-font-size-sm);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-activity": TwinActivityList
  }
}

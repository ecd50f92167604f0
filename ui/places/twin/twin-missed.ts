/**
 * "What did I miss": today's nudges the hush gate held (quiet hours, a snooze) or refused (the
 * daily cap, nudges off), newest first, with the gate's reason; each opens "Why was I nudged"
 * in place. It loads again when a signal arrives (a held nudge let through) and at each `hello`.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { Nudge } from "../../../actors/being/contract/hush.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { coalesce } from "../../components/coalesce.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./twin-nudge-why.ts"
import { recordListStyles } from "../../styles/record-list-styles.ts"

@customElement("twin-missed")
export class TwinMissed extends LitElement {
  private readonly _missed = new ApiResource(this, (client) => client.twinHush.heldNudges(), { loadOnConnect: false })

  /** The nudges whose "why" is open. */
  @state() private accessor _open: ReadonlySet<string> = new Set()

  private readonly _reload = coalesce(() => this._missed.reload())

  private readonly _load = new LiveLoad(this, () => this._reload())

  private readonly _live = new LiveEvents(this, { "signal.created": () => this._reload() })

  /** Loads again (the hush settings beside it changed). */
  reload(): void {
    this._reload()
  }

  protected override render() {
    return html`<section class="card" aria-labelledby="missed-title">
      <h2 id="missed-title">What did I miss</h2>
      <p class="muted">Today's nudges your hush settings held back or turned away.</p>
      <node-alert .message=${this._missed.error}></node-alert>
      ${this._missed.render("Loading what you missed…", ({ held, refused }) =>
        held.length === 0 && refused.length === 0
          ? html`<p class="muted">Nothing today: every nudge came through.</p>`
          : html`${this._renderGroup("Held for later", "held", held)}${this._renderGroup("Turned away", "refused", refused)}`
      )}
    </section>`
  }

  private _renderGroup(title: string, id: string, nudges: ReadonlyArray<Nudge>) {
    if (nudges.length === 0) return nothing
    return html`<h3 id=${`${id}-title`}>${title} (${nudges.length})</h3>
      <ul class="records nudges" aria-labelledby=${`${id}-title`}>
        ${nudges.map((nudge) => this._renderNudge(nudge))}
      </ul>`
  }

  private _renderNudge(nudge: Nudge) {
    const open = this._open.has(nudge.id)
    return html`<li class="nudge" data-nudge-id=${nudge.id}>
      <p class="title"><strong>${nudge.title}</strong> <span class="badge">${nudge.kind}</span></p>
      ${nudge.body === "" ? nothing : html`<p class="body">${nudge.body}</p>`}
      <p class="muted meta">
        ${nudge.reason}
        ${nudge.countedAgainst === null ? "" : ` Nudge ${nudge.countedAgainst.used} of ${nudge.countedAgainst.cap} today.`}
        Raised ${formatDateTime(nudge.createdAt)}.
      </p>
      <button class="secondary" type="button" aria-expanded=${open} aria-controls=${`why-${nudge.id}`} @click=${() => this._toggle(nudge.id)}>
        Why was I nudged<span class="sr-only">: ${nudge.title}</span>
      </button>
      <div id=${`why-${nudge.id}`}>${open ? html`<twin-nudge-why .nudgeId=${nudge.id}></twin-nudge-why>` : nothing}</div>
    </li>`
  }

  private _toggle(id: string): void {
    const open = new Set(this._open)
    if (!open.delete(id)) open.add(id)
    this._open = open
  }

  static override styles = [
    sharedStyles,
    recordListStyles,
    css`
      .nudges {
        margin: 0 0 var(--node-space-4);
      }
      .title,
      .body {
        margin: 0 0 var(--node-space-1);
        overflow-wrap: anywhere;
      }
      .meta {
        display: block;
        margin: 0 0 var(--node-space-2);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-missed": TwinMissed
  }
}

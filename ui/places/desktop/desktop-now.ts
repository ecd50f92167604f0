/**
 * The `core.now` widget: the node's greeting and the time where the person is. It sends the
 * browser's IANA time zone, so the greeting ("Good morning" …) follows the person's day, and
 * then keeps the clock going by itself from the node's time, asking again when the hour turns
 * (the greeting may change with it). When the hush gate holds nudges (quiet hours, a snooze)
 * it says how many, linked to the twin's hush section, where "What did I miss" lists them.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { NowResponse } from "../../../extensions/desktop/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/** The browser's zone, or none for a browser that cannot say (the node uses its own then). */
const browserTimeZone = (): string | undefined => Intl.DateTimeFormat().resolvedOptions().timeZone || undefined

const hourIn = (timeZone: string, at: Date): string =>
  new Intl.DateTimeFormat("en", { timeZone, hour: "numeric", hourCycle: "h23" }).format(at)

@customElement("desktop-now")
export class DesktopNow extends LitElement {
  private readonly _now = new ApiResource(this, (client) => {
    const tz = browserTimeZone()
    return client.desktop.now({ urlParams: tz === undefined ? {} : { tz } })
  })

  /** The node's clock minus this browser's, from the last answer. */
  private _offset = 0

  private _answered: NowResponse | null = null

  /** The hour (in the answer's zone) of the last answer; another hour asks again. */
  private _hour = ""

  @state() private accessor _tick = Date.now()

  private _timer: ReturnType<typeof setTimeout> | undefined

  override connectedCallback(): void {
    super.connectedCallback()
    this._schedule()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearTimeout(this._timer)
  }

  protected override willUpdate(): void {
    const now = this._now.value
    if (now === null || now === this._answered) return
    this._answered = now
    this._tick = Date.now()
    this._offset = Date.parse(now.serverTime) - Date.now()
    this._hour = hourIn(now.timeZone, new Date(now.serverTime))
  }

  protected override render() {
    return html`
      <node-alert .message=${this._now.error}></node-alert>
      ${this._now.render("Loading the time…", (now) => {
        const at = new Date(this._tick + this._offset)
        return html`
          <p class="greeting">${now.greeting}</p>
          <p class="time">
            <time datetime=${at.toISOString()}>
              ${new Intl.DateTimeFormat(undefined, { timeZone: now.timeZone, dateStyle: "full", timeStyle: "short" }).format(at)}
            </time>
          </p>
          <p class="muted zone">Time zone: ${now.timeZone}</p>
          ${
            now.heldNudges === 0
              ? nothing
              : html`<p class="held">
                <a href="/twin?section=hush"
                  ><span class="count">${now.heldNudges}</span> <span class="words">${now.heldNudges === 1 ? "nudge" : "nudges"} held for later</span></a
                >
              </p>`
          }
        `
      })}
      ${
        this._now.value === null && !this._now.loading && this._now.error !== ""
          ? html`<button class="secondary" type="button" @click=${() => this._now.reload()}>Try again</button>`
          : nothing
      }
    `
  }

  /** Draws again at the next minute, and asks the node again when the hour there turned. */
  private _schedule(): void {
    this._timer = setTimeout(
      () => {
        this._tick = Date.now()
        const now = this._now.value
        if (
          now !== null &&
          !this._now.loading &&
          hourIn(now.timeZone, new Date(this._tick + this._offset)) !== this._hour
        ) {
          void this._now.reload()
        }
        this._schedule()
      },
      60_000 - (Date.now() % 60_000) + 50
    )
  }

  static override styles = [
    sharedStyles,
    css`
      .greeting {
        font-size: var(--node-font-size-2xl);
        font-weight: var(--node-font-weight-bold);
        line-height: var(--node-line-height-tight);
        letter-spacing: -0.01em;
        margin-bottom: var(--node-space-2);
      }
      .time {
        font-size: var(--node-font-size-lg);
        margin-bottom: var(--node-space-1);
      }
      .zone {
        font-size: var(--node-font-size-sm);
        margin: 0;
      }
      .held {
        margin: var(--node-space-3) 0 0;
      }
      .held a {
        display: inline-flex;
        align-items: center;
        gap: var(--node-space-2);
        font-weight: var(--node-font-weight-semibold);
        text-decoration: none;
      }
      .held a .words {
        text-decoration: underline;
        text-underline-offset: 2px;
      }
      .count {
        display: inline-grid;
        place-items: center;
        min-width: 1.75rem;
        height: 1.75rem;
        padding: 0 var(--node-space-2);
        border-radius: var(--node-radius-pill);
        background: var(--node-accent-soft);
        color: var(--node-accent-soft-text);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "desktop-now": DesktopNow
  }
}

/**
 * The `core.signals` widget: the open signals the desktop holds (most pressing first: by
 * priority, then due date, then newest), each with its kind, priority, title, body, who raised
 * it (a project by its title, linked to its page) and when it is due. A signal with options is
 * answered with one tap on an option; any open signal can be dismissed. The node's answer is
 * sent up (`signal-changed`) so the desktop drops the signal at once; a refusal (someone
 * answered it in another tab first: 409) is told in the node's words and the desktop loads the
 * list again (`signals-stale`).
 */
import type * as Effect from "effect/Effect"
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Signal, SignalKind, SignalOption, SignalPriority } from "../../../actors/being/contract/signal.ts"
import type { NodeClient } from "../../api/client.ts"
import { ApiAction } from "../../components/api-action.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { SIGNALS_SHOWN } from "./open-signals.ts"
import { ProjectTitles } from "./project-titles.ts"

const kindLabels: Record<SignalKind, string> = {
  decision: "Decision",
  insight: "Insight",
  reminder: "Reminder",
  alert: "Alert",
  question: "Question",
  celebration: "Celebration"
}

const priorityLabels: Record<SignalPriority, string> = {
  low: "Low priority",
  normal: "Normal priority",
  high: "High priority",
  urgent: "Urgent"
}

/** Who raised it: `owner`, `plugin:<id>`, `studio:<projectId>` (a project, by its title), or the source as it came. */
const sourceOf = (source: string): { readonly words: string } | { readonly projectId: string } => {
  if (source === "owner") return { words: "You" }
  const [kind, ...rest] = source.split(":")
  const id = rest.join(":")
  if (kind === "plugin" && id !== "") return { words: `Plugin ${id}` }
  if (kind === "studio" && id !== "") return { projectId: id }
  return { words: source }
}

@customElement("desktop-signals")
export class DesktopSignals extends LitElement {
  /** The open signals in the desktop's order; null until the desktop's first load answered. */
  @property({ attribute: false }) accessor signals: ReadonlyArray<Signal> | null = null

  @property({ type: Boolean }) accessor loading = false

  /** Why the desktop could not load them, in the node's words. */
  @property() accessor error = ""

  /** The signal a link named (`/?signal=<id>`, a pushed notification's): marked, and scrolled into view once. */
  @property() accessor focusId = ""

  /** The signal already brought into view, so a later update does not pull the page back to it. */
  private _shown = ""

  private readonly _acting = new ApiAction(this)

  private readonly _projects = new ProjectTitles(this)

  /** The signals whose answer or dismissal is on its way. */
  @state() private accessor _busy: ReadonlySet<string> = new Set()

  protected override updated(): void {
    if (this.focusId === "" || this.focusId === this._shown) return
    const named = this.renderRoot.querySelector<HTMLElement>(`li[data-signal-id="${CSS.escape(this.focusId)}"]`)
    if (named === null) return
    this._shown = this.focusId
    named.scrollIntoView({ block: "center" })
  }

  protected override render() {
    return html`
      <node-alert .message=${this._acting.error || this.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${
        this.signals === null
          ? this.loading
            ? html`<p class="muted" role="status">Loading signals…</p>`
            : nothing
          : this.signals.length === 0
            ? html`<p class="muted empty">Nothing needs you right now.</p>`
            : html`<ul class="signals">
                ${this.signals.map((signal) => this._renderSignal(signal))}
              </ul>
              ${
                this.signals.length >= SIGNALS_SHOWN
                  ? html`<p class="muted">Showing the newest ${SIGNALS_SHOWN} open signals.</p>`
                  : nothing
              }`
      }
    `
  }

  private _renderSignal(signal: Signal) {
    const busy = this._busy.has(signal.id)
    const titleId = `signal-${signal.id}`
    return html`<li class="signal" data-signal-id=${signal.id} data-priority=${signal.priority} data-kind=${signal.kind}
      aria-current=${signal.id === this.focusId ? "true" : "false"}>
      <article aria-labelledby=${titleId}>
        <p class="tags">
          <span class="tag kind">${kindLabels[signal.kind]}</span>
          <span class="tag priority">${priorityLabels[signal.priority]}</span>
        </p>
        <h3 id=${titleId}>${signal.title}</h3>
        ${signal.body === "" ? nothing : html`<p class="body">${signal.body}</p>`}
        <dl class="facts">
          <div><dt>From</dt><dd class="source">${this._renderSource(signal.source)}</dd></div>
          ${
            signal.dueAt === null
              ? nothing
              : html`<div>
                <dt>Due</dt>
                <dd class="due"><time datetime=${signal.dueAt}>${formatDateTime(signal.dueAt)}</time></dd>
              </div>`
          }
          <div>
            <dt>Raised</dt>
            <dd><time datetime=${signal.createdAt}>${formatDateTime(signal.createdAt)}</time></dd>
          </div>
        </dl>
        <div class="actions">
          ${
            signal.options.length === 0
              ? nothing
              : html`<div class="options" role="group" aria-label=${`Answer: ${signal.title}`}>
                ${signal.options.map(
                  (option) => html`<button
                    class="option"
                    type="button"
                    ?disabled=${busy}
                    @click=${() => this._answer(signal, option)}
                  >
                    <span>${option.label}</span>
                    ${option.hint === undefined ? nothing : html`<span class="hint">${option.hint}</span>`}
                  </button>`
                )}
              </div>`
          }
          <button
            class="secondary dismiss"
            type="button"
            ?disabled=${busy}
            aria-label=${`Dismiss: ${signal.title}`}
            @click=${() => this._dismiss(signal)}
          >
            Dismiss
          </button>
        </div>
      </article>
    </li>`
  }

  private _renderSource(source: string) {
    const from = sourceOf(source)
    if ("words" in from) return from.words
    return html`<a href=${`/studio/${encodeURIComponent(from.projectId)}`}>${this._projects.titleOf(from.projectId) ?? "A studio project"}</a>`
  }

  private _answer(signal: Signal, option: SignalOption): Promise<void> {
    return this._act(
      signal,
      (client) => client.desktop.answerSignal({ path: { id: signal.id }, payload: { optionId: option.id } }),
      `You answered “${option.label}” to “${signal.title}”.`
    )
  }

  private _dismiss(signal: Signal): Promise<void> {
    return this._act(
      signal,
      (client) => client.desktop.dismissSignal({ path: { id: signal.id } }),
      `Dismissed “${signal.title}”.`
    )
  }

  private async _act(
    signal: Signal,
    call: (client: NodeClient) => Effect.Effect<Signal, unknown>,
    done: string
  ): Promise<void> {
    this._busy = new Set([...this._busy, signal.id])
    const ok = await this._acting.run(call, (changed) => {
      fireEvent(this, "signal-changed", { signal: changed })
      return done
    })
    this._busy = new Set([...this._busy].filter((id) => id !== signal.id))
    if (!ok) fireEvent(this, "signals-stale", {})
  }

  static override styles = [
    sharedStyles,
    css`
      /* The signals fill the widget's width: as many side by side as fit. */
      .signals {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 20rem), 1fr));
        gap: var(--node-space-3);
      }
      .signal {
        border: 1px solid var(--node-border);
        border-left: 4px solid var(--node-border-strong);
        border-radius: var(--node-radius);
        padding: var(--node-space-4);
        background: var(--node-surface-sunken);
      }
      /* The signal a link (a notification) named. */
      .signal[aria-current="true"] {
        outline: 2px solid var(--node-focus);
        outline-offset: 2px;
      }
      .signal article {
        display: flex;
        flex-direction: column;
        height: 100%;
      }
      .signal .actions {
        margin-top: auto;
      }
      .signal[data-priority="high"] {
        border-left-color: var(--node-accent);
      }
      .signal[data-priority="urgent"] {
        border-left-color: var(--node-danger);
      }
      h3 {
        font-size: var(--node-font-size-lg);
        margin: 0 0 var(--node-space-1);
        overflow-wrap: anywhere;
      }
      .tags {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        margin: 0 0 6px;
      }
      .tag {
        font-size: var(--node-font-size-xs);
        font-weight: var(--node-font-weight-semibold);
        border-radius: var(--node-radius-pill);
        padding: 0 var(--node-space-2);
        line-height: 1.7;
        color: var(--node-muted);
        background: var(--node-surface-raised);
      }
      .signal[data-priority="high"] .priority {
        color: var(--node-accent-soft-text);
        background: var(--node-accent-soft);
      }
      .signal[data-priority="urgent"] .priority {
        color: var(--node-danger);
        background: var(--node-danger-bg);
      }
      .body {
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      .facts {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-1) var(--node-space-4);
        margin: 0 0 var(--node-space-3);
        font-size: var(--node-font-size-sm);
      }
      .facts div {
        display: flex;
        gap: 4px;
      }
      dt {
        color: var(--node-muted);
      }
      dt::after {
        content: ":";
      }
      dd {
        margin: 0;
      }
      .options {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
      }
      .option {
        flex-direction: column;
        align-items: flex-start;
      }
      .option {
        min-height: 44px;
        padding: var(--node-space-1) var(--node-space-3);
      }
      .hint {
        font-size: var(--node-font-size-xs);
        font-weight: 400;
      }
      .dismiss {
        margin-left: auto;
      }
      .empty {
        margin: 0;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "desktop-signals": DesktopSignals
  }
}

/**
 * "Why was I nudged": what the hush gate wrote when it decided (who raised it and as what, the
 * decision, its reason and rule, how it counted against the day's cap) and each item of
 * evidence, looked up now: an item deleted since reads as gone.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { GateDecision, GateTrigger, NudgeWhy } from "../../../actors/being/contract/hush.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const triggerWords: Record<GateTrigger, string> = {
  proactive: "Your twin's own idea",
  responsive: "An answer to something you did",
  system: "The node's own alert"
}

const decisionWords: Record<GateDecision, string> = {
  raised: "Shown at once",
  held: "Held for later",
  refused: "Turned away"
}

@customElement("twin-nudge-why")
export class TwinNudgeWhy extends LitElement {
  @property() accessor nudgeId = ""

  private readonly _why = new ApiResource(this, (client) => client.twinHush.nudgeWhy({ path: { id: this.nudgeId } }))

  protected override render() {
    return html`<div class="why">
      <node-alert .message=${this._why.error}></node-alert>
      ${this._why.render("Looking up why…", (why) => this._renderWhy(why))}
    </div>`
  }

  private _renderWhy(why: NudgeWhy) {
    const gate = why.gate
    return html`
      <p class="because">${why.because}</p>
      ${
        gate === null
          ? nothing
          : html`<dl class="stamp">
            <div><dt>Raised as</dt><dd>${triggerWords[gate.trigger]} (${gate.trigger})</dd></div>
            <div><dt>Decision</dt><dd>${decisionWords[gate.decision]}</dd></div>
            <div><dt>Rule</dt><dd><code>${gate.key}</code></dd></div>
            ${gate.heldUntil === null ? nothing : html`<div><dt>Held until</dt><dd>${formatDateTime(gate.heldUntil)}</dd></div>`}
            ${
              gate.countedAgainst === null
                ? nothing
                : html`<div><dt>Daily cap</dt><dd>${gate.countedAgainst.used} of ${gate.countedAgainst.cap} used</dd></div>`
            }
            <div><dt>Decided</dt><dd>${formatDateTime(gate.at)}</dd></div>
            <div><dt>From</dt><dd>${why.source}</dd></div>
          </dl>`
      }
      <h4>Based on</h4>
      ${
        why.evidence.length === 0
          ? html`<p class="muted">No evidence was recorded with this nudge.</p>`
          : html`<ul class="evidence">
            ${why.evidence.map(
              (item) => html`<li class=${item.gone ? "gone" : ""}>
                <span class="badge" data-tone=${item.gone ? "bad" : ""}>${item.kind}</span>
                ${item.gone ? html`<span>Gone: ${item.label}</span>` : html`<span>${item.label}</span>`}
                ${item.snippet === undefined || item.gone ? nothing : html`<span class="muted snippet">${item.snippet}</span>`}
              </li>`
            )}
          </ul>`
      }
    `
  }

  static override styles = [
    sharedStyles,
    css`
      .why {
        background: var(--node-surface-sunken);
        border-radius: var(--node-radius);
        padding: var(--node-space-3) var(--node-space-4);
        margin-top: var(--node-space-2);
        font-size: var(--node-font-size-sm);
      }
      .stamp {
        display: grid;
        gap: var(--node-space-1);
        margin: 0 0 var(--node-space-3);
      }
      .stamp div {
        display: grid;
        grid-template-columns: 7rem minmax(0, 1fr);
        gap: var(--node-space-2);
      }
      dt {
        color: var(--node-muted);
      }
      dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      h4 {
        margin: 0 0 var(--node-space-1);
        font-size: var(--node-font-size-sm);
      }
      .evidence {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-1);
      }
      .evidence li {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-1) var(--node-space-2);
        align-items: baseline;
      }
      .gone span:not(.badge) {
        color: var(--node-muted);
        font-style: italic;
      }
      .snippet {
        flex-basis: 100%;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-nudge-why": TwinNudgeWhy
  }
}

/**
 * When the twin may nudge you (the hush gate's settings): the level (all nudges, fewer: half the
 * daily cap, or off), quiet hours (in the profile's time zone; the same start and end: none),
 * the daily cap, and a snooze of some hours (0 ends one). Saved with PUT /api/twin/hush.
 */
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { HushLevel, HushSettings, PutHush } from "../../../actors/being/contract/hush.ts"
import { MAX_DAILY_CAP, MAX_MUTE_HOURS } from "../../../actors/being/contract/hush.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { clockOf, minutesOf } from "./twin-time.ts"

const levels: ReadonlyArray<readonly [HushLevel, string]> = [
  ["normal", "All nudges"],
  ["fewer", "Fewer nudges (half the daily cap)"],
  ["off", "No nudges"]
]

@customElement("twin-hush")
export class TwinHush extends LitElement {
  private readonly _hush = new ApiResource(this, (client) => client.twinHush.getHush())

  private readonly _saving = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="hush-title">
      <h2 id="hush-title">Hush</h2>
      <p class="muted">When your twin may nudge you on its own. Answers to what you asked and the node's own alerts always come through.</p>
      <p class="muted" id="hush-devices">These settings also decide what reaches your devices: a nudge held here is sent to them when it comes through, one refused never (<a href="/settings?section=notifications">Notifications</a>).</p>
      <node-alert .message=${this._saving.error || this._hush.error}></node-alert>
      <node-alert kind="success" .message=${this._saving.notice}></node-alert>
      ${this._hush.render("Loading the hush settings…", (hush) => this._renderForm(hush))}
    </section>`
  }

  private _renderForm(hush: HushSettings) {
    const muted = hush.mutedUntil !== null && Date.parse(hush.mutedUntil) > Date.now()
    return html`<form @submit=${this._save}>
      <label
        >Nudges
        <select name="level">
          ${levels.map(([level, label]) => html`<option value=${level} ?selected=${hush.level === level}>${label}</option>`)}
        </select>
      </label>
      <fieldset>
        <legend>Quiet hours</legend>
        <p class="muted help" id="quiet-help">In your profile's time zone. Nudges wait until they end; the same start and end: no quiet hours.</p>
        <div class="pair">
          <label>From <input name="quietStart" type="time" required .value=${clockOf(hush.quietStart)} aria-describedby="quiet-help" /></label>
          <label>Until <input name="quietEnd" type="time" required .value=${clockOf(hush.quietEnd)} aria-describedby="quiet-help" /></label>
        </div>
      </fieldset>
      <label
        >Nudges a day at most
        <input name="dailyCap" type="number" min="0" max=${MAX_DAILY_CAP} step="1" required .value=${String(hush.dailyCap)} />
      </label>
      <div class="field">
        <label
          >Snooze for hours
          <input name="muteHours" type="number" min="0" max=${MAX_MUTE_HOURS} step="1" placeholder=${muted ? "0 ends the snooze" : "No snooze"} aria-describedby="mute-help" />
        </label>
        <span class="muted help" id="mute-help"
          >${muted ? `Snoozed until ${formatDateTime(hush.mutedUntil ?? "")}. 0 ends the snooze.` : "Not snoozed. Empty leaves it so."}</span
        >
      </div>
      <div class="actions"><button type="submit" ?disabled=${this._saving.busy}>Save the hush settings</button></div>
    </form>`
  }

  private readonly _save = onSubmit(async ({ field, form }) => {
    const quietStart = minutesOf(field("quietStart"))
    const quietEnd = minutesOf(field("quietEnd"))
    if (quietStart === null || quietEnd === null) return this._saving.fail("Give quiet hours a start and an end.")
    const muteHours = field("muteHours")
    const put: PutHush = {
      level: field("level") as HushLevel,
      quietStart,
      quietEnd,
      dailyCap: Number(field("dailyCap")),
      ...(muteHours === "" ? {} : { muteHours: Number(muteHours) })
    }
    const saved = await this._saving.run(
      (client) => client.twinHush.putHush({ payload: put }),
      (hush) => {
        this._hush.replace(hush)
        return "The hush settings are saved."
      }
    )
    if (!saved) return
    ;(form.elements.namedItem("muteHours") as HTMLInputElement).value = ""
    // "What did I miss" beside it: a change (a snooze ended) may have let held nudges through.
    fireEvent(this, "hush-changed", {})
  })

  static override styles = [
    sharedStyles,
    css`
      fieldset {
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
        padding: var(--node-space-3) var(--node-space-4) var(--node-space-4);
        margin: 0;
        min-width: 0;
      }
      legend {
        font-size: var(--node-font-size-sm);
        font-weight: var(--node-font-weight-semibold);
        padding: 0 var(--node-space-1);
      }
      .field {
        display: grid;
        gap: var(--node-space-1);
      }
      .pair {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(8rem, 1fr));
        gap: var(--node-space-3);
      }
      .help {
        font-size: var(--node-font-size-sm);
        font-weight: var(--node-font-weight-regular);
        margin: 0 0 var(--node-space-2);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-hush": TwinHush
  }
}

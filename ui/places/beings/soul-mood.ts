/**
 * What the being itself or the owner may do to a soul without rewriting it: tell it something
 * that happened (`drift`: the mood moves toward the event's affect, less for an event long past)
 * and compile its prompt again (`recompile`, after a rename). The newer soul goes up as `soul-changed`.
 */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Soul } from "../../../extensions/souls/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit, type SubmittedForm } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { containerStyles, inlineFormStyles, sharedStyles } from "../../styles/shared-styles.ts"
import { moodWords } from "./soul-labels.ts"

@customElement("soul-mood")
export class SoulMood extends LitElement {
  @property() accessor beingId = ""

  private readonly _action = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="mood-title">
      <h2 id="mood-title">Mood and prompt</h2>
      <p class="muted">Tell the soul what happened and its mood drifts toward how that feels, then back to rest with time.</p>
      <form class="inline" @submit=${onSubmit(this._drift)}>
        <label>What happened<input name="event" required maxlength="2000" /></label>
        <label>Minutes ago<input name="minutes" type="number" min="0" max="10080" step="1" value="0" /></label>
        <div class="actions"><button type="submit" ?disabled=${this._action.busy}>Drift the mood</button></div>
      </form>
      <div class="actions">
        <button type="button" class="secondary" ?disabled=${this._action.busy} @click=${this._recompile}>Recompile the prompt</button>
      </div>
      <node-alert .message=${this._action.error}></node-alert>
      <node-alert kind="success" .message=${this._action.notice}></node-alert>
    </section>`
  }

  private readonly _changed =
    (words: (soul: Soul) => string) =>
    (soul: Soul): string => {
      fireEvent(this, "soul-changed", { soul })
      return words(soul)
    }

  private readonly _drift = async ({ clear, field }: SubmittedForm): Promise<void> => {
    const payload = { event: field("event"), minutes: Number(field("minutes") || "0") }
    const ok = await this._action.run(
      (client) => client.souls.driftSoul({ path: { beingId: this.beingId }, payload }),
      this._changed((soul) => `The mood drifted: now ${moodWords(soul.mood)}.`)
    )
    if (ok) clear()
  }

  private readonly _recompile = async (): Promise<void> => {
    await this._action.run(
      (client) => client.souls.recompileSoul({ path: { beingId: this.beingId } }),
      this._changed(() => "The prompt is compiled again from the soul's fields.")
    )
  }

  static override styles = [sharedStyles, containerStyles, inlineFormStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "soul-mood": SoulMood
  }
}

/**
 * The owner rewrites a soul (`PUT /api/souls/:beingId`): the eight traits as sliders, the values
 * one a line, voice, empathy style, backstory and purpose. The node compiles the prompt from them
 * and keeps the mood; the newer soul goes up as `soul-changed`.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Personality, Soul } from "../../../extensions/souls/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit, type SubmittedForm } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { traitNames } from "./soul-labels.ts"

@customElement("soul-editor")
export class SoulEditor extends LitElement {
  @property() accessor beingId = ""

  @property({ attribute: false }) accessor soul: Soul | null = null

  private readonly _save = new ApiAction(this)

  protected override render() {
    const soul = this.soul
    if (soul === null) return nothing
    return html`<section class="card" aria-labelledby="edit-title">
      <h2 id="edit-title">Edit the soul</h2>
      <p class="muted">As the owner you write who this being is. Saving compiles its system prompt again; its mood stays.</p>
      <form @submit=${onSubmit(this._send)}>
        <fieldset>
          <legend>Personality</legend>
          ${traitNames.map(
            ([trait, name]) => html`<label>${name}
            <input type="range" name=${trait} min="0" max="1" step="0.01" .value=${String(soul.personality[trait])} />
          </label>`
          )}
        </fieldset>
        <label>Values, one a line<textarea name="values" rows="4" .value=${soul.values.join("\n")}></textarea></label>
        <label>Voice<textarea name="voice" rows="2" maxlength="600" .value=${soul.voice}></textarea></label>
        <label>Empathy style<textarea name="empathyStyle" rows="2" maxlength="600" .value=${soul.empathyStyle}></textarea></label>
        <label>Backstory<textarea name="backstory" rows="4" maxlength="4000" .value=${soul.backstory}></textarea></label>
        <label>Purpose<textarea name="purpose" rows="2" maxlength="600" .value=${soul.purpose}></textarea></label>
        <node-alert .message=${this._save.error}></node-alert>
        <node-alert kind="success" .message=${this._save.notice}></node-alert>
        <div class="actions"><button type="submit" ?disabled=${this._save.busy}>Save the soul</button></div>
      </form>
    </section>`
  }

  private readonly _send = async ({ field }: SubmittedForm): Promise<void> => {
    const personality = Object.fromEntries(
      traitNames.map(([trait]) => [trait, Number(field(trait))])
    ) as unknown as Personality
    const values = field("values")
      .split("\n")
      .map((value) => value.trim())
      .filter((value) => value !== "")
    const payload = {
      personality,
      values,
      voice: field("voice"),
      empathyStyle: field("empathyStyle"),
      backstory: field("backstory"),
      purpose: field("purpose")
    }
    await this._save.run(
      (client) => client.souls.putSoul({ path: { beingId: this.beingId }, payload }),
      (soul) => {
        fireEvent(this, "soul-changed", { soul })
        return "The soul is saved and its prompt compiled."
      }
    )
  }

  static override styles = [
    sharedStyles,
    css`
      form {
        max-width: 48rem;
      }
      fieldset {
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-sm);
        padding: var(--node-space-3) var(--node-space-4) var(--node-space-4);
        margin: 0;
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 12rem), 1fr));
        gap: var(--node-space-3) var(--node-space-4);
        min-width: 0;
      }
      legend {
        font-size: var(--node-font-size-sm);
        font-weight: var(--node-font-weight-semibold);
        padding: 0 var(--node-space-1);
      }
      input[type="range"] {
        padding: 0;
        border: none;
        min-height: 24px;
        accent-color: var(--node-accent);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "soul-editor": SoulEditor
  }
}

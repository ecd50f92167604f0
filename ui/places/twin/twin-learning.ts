/**
 * "Learns from": the owner's switch for each source the twin learns from on its own (its own
 * messages to the Muse, the chat bridge, synced mail, indexed files), and how much waits for the
 * next pass. A switch saves at once (PUT /api/twin/learning with that one source); switching one
 * off also drops what it had queued, which the card says before it happens.
 */
import { css, html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { LearningSource, LearningState } from "../../../extensions/twin/contract/learning.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const sources: ReadonlyArray<readonly [LearningSource, string, string]> = [
  [
    "thread",
    "Your Muse threads",
    "What you write to your Muse here (never its replies, never anyone else's messages)."
  ],
  ["chat", "The chat bridge", "What you send your Muse from your chat app."],
  ["mail", "Synced mail", "The subject and text of each mail a sync brings in."],
  ["file", "Indexed files", "The text of each file the files sync indexes, once per change."]
]

@customElement("twin-learning")
export class TwinLearning extends LitElement {
  private readonly _learning = new ApiResource(this, (client) => client.twin.getLearning())

  private readonly _saving = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="learning-title">
      <h2 id="learning-title">Learns from</h2>
      <p class="muted">Your twin turns these into memories on its own, a few minutes after they arrive. Switching one off also forgets what it had not read yet.</p>
      <node-alert .message=${this._saving.error || this._learning.error}></node-alert>
      ${this._learning.render("Loading what your twin learns from…", (learning) => this._renderSwitches(learning))}
    </section>`
  }

  private _renderSwitches(learning: LearningState) {
    return html`<ul class="switches">
        ${sources.map(
          ([source, label, help]) => html`<li>
            <label>
              <input
                type="checkbox"
                role="switch"
                name=${source}
                .checked=${learning.sources[source]}
                ?disabled=${this._saving.busy}
                aria-describedby=${`learning-${source}-help`}
                @change=${(event: Event) => this._switch(source, (event.target as HTMLInputElement).checked)}
              />
              <span>${label}</span>
            </label>
            <span class="muted help" id=${`learning-${source}-help`}>${help}</span>
          </li>`
        )}
      </ul>
      <p class="muted queued">${learning.queued === 0 ? "Nothing waits to be learned." : `${learning.queued} ${learning.queued === 1 ? "piece waits" : "pieces wait"} for the next pass.`}</p>`
  }

  private async _switch(source: LearningSource, on: boolean) {
    await this._saving.run(
      (client) => client.twin.putLearning({ payload: { sources: { [source]: on } } }),
      (learning) => this._learning.replace(learning)
    )
  }

  static override styles = [
    sharedStyles,
    css`
      .switches {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-3);
      }
      .switches li {
        display: grid;
        gap: var(--node-space-1);
      }
      label {
        display: flex;
        align-items: center;
        gap: var(--node-space-2);
        min-height: 44px;
        font-weight: var(--node-font-weight-semibold);
        cursor: pointer;
      }
      .help,
      .queued {
        font-size: var(--node-font-size-sm);
        margin: 0;
      }
      .queued {
        margin-top: var(--node-space-3);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-learning": TwinLearning
  }
}

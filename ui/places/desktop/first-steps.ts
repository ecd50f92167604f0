/**
 * The owner's first steps, on the desktop until each is done or the list is dismissed: connect a
 * model (or the demo models), run a first generator, meet the Muse, add a widget. Each step's state
 * is read from what the node already answers (the tiers, the projects, the Muse's thread, and the
 * widget layout the desktop read), so a step done anywhere shows done here. Dismissed per browser (localStorage):
 * it is a hint, not a setting.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import * as Effect from "effect/Effect"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { demoModelsWords, useDemoModels } from "../../components/demo-models.ts"
import "../../components/node-alert.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

interface Progress {
  readonly model: boolean
  readonly generator: boolean
  readonly muse: boolean
}

type Step = keyof Progress | "widget"

const steps: ReadonlyArray<{
  readonly id: Step
  readonly label: string
  readonly href: string
  readonly how: string
}> = [
  {
    id: "model",
    label: "Connect a model",
    href: "/settings?section=models",
    how: "or bind the demo models, in Settings → Models"
  },
  { id: "generator", label: "Run a first generator", href: "/studio", how: "pick one in Studio and start the run" },
  { id: "muse", label: "Meet the Muse", href: "/muse", how: "say hello in Muse" },
  { id: "widget", label: "Add a widget", href: "/", how: "with Add a widget, above" }
]

const dismissedKey = (beingId: string) => `first-steps-dismissed:${beingId}`

@customElement("first-steps")
export class FirstSteps extends LitElement {
  @property() accessor beingId = ""

  /** Whether the being stored a widget layout: the desktop has read it already, so it is not asked again. */
  @property({ type: Boolean }) accessor widgetsStored = false

  @state() private accessor _dismissed = false

  private readonly _acting = new ApiAction(this)

  private readonly _progress = new ApiResource(
    this,
    (client) =>
      Effect.all(
        {
          tiers: client.llm.tiers(),
          projects: client.studioProjects.listProjects({ urlParams: { limit: 1, offset: 0 } }),
          muse: client.threads.listThreads({ urlParams: { kind: "muse", limit: 1, offset: 0 } })
        },
        { concurrency: "unbounded" }
      ).pipe(
        Effect.map(
          ({ tiers, projects, muse }): Progress => ({
            model: tiers.some((tier) => tier.tier === "standard" && tier.source !== "none"),
            generator: projects.length > 0,
            muse: muse.some((thread) => thread.lastMessageAt !== null)
          })
        )
      ),
    { reloadOn: ["models-changed"] }
  )

  override connectedCallback(): void {
    super.connectedCallback()
    this._dismissed = localStorage.getItem(dismissedKey(this.beingId)) !== null
  }

  protected override render() {
    const loaded = this._progress.value
    if (this._dismissed || loaded === null) return nothing
    const progress: Record<Step, boolean> = { ...loaded, widget: this.widgetsStored }
    if (steps.every((step) => progress[step.id])) return nothing
    return html`<section class="card" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title">First steps</h2>
      <ol>
        ${steps.map(
          (step) => html`<li data-done=${progress[step.id]}>
            ${progress[step.id] ? html`<span class="done">Done:</span> ${step.label}` : html`<a href=${step.href}>${step.label}</a> <span class="muted">${step.how}</span>`}
          </li>`
        )}
      </ol>
      <node-alert .message=${this._acting.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      <div class="actions">
        ${progress.model ? nothing : html`<button type="button" ?disabled=${this._acting.busy} @click=${this._useDemo}>Use the demo models</button>`}
        <button class="secondary" type="button" @click=${this._dismiss}>Dismiss the first steps</button>
      </div>
    </section>`
  }

  private readonly _useDemo = async (): Promise<void> => {
    if (await this._acting.run(useDemoModels, demoModelsWords)) fireEvent(this, "models-changed", {})
  }

  private readonly _dismiss = (): void => {
    localStorage.setItem(dismissedKey(this.beingId), new Date().toISOString())
    this._dismissed = true
  }

  static override styles = [
    sharedStyles,
    css`
      ol {
        margin: 0 0 var(--node-space-3);
        padding-left: var(--node-space-5);
        display: grid;
        gap: var(--node-space-2);
      }
      li[data-done="true"] {
        color: var(--node-muted);
      }
      .done {
        font-weight: var(--node-font-weight-semibold);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "first-steps": FirstSteps
  }
}

/**
 * One generator's input form, at `/studio?generator=<slug>`: its name, what it does and makes,
 * the plan a run of it follows (its steps as the run's repair pass makes them, so with the
 * research step the run adds when none of them researches), and the form drawn from its JSON
 * Schema (`<schema-form>`), filled with an earlier run's inputs at `&from=<projectId>`. Starting sends the typed values
 * (`POST /api/studio/projects { generatorId, inputs }`) and goes to the new project; the node's
 * refusal (inputs that do not fit the form, a generator that no longer validates) is told in
 * its words. The heading takes the keyboard when the form was opened by a navigation (the shell
 * moves it there once the generator has loaded).
 */
import { css, html, LitElement, type PropertyValues } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Generator } from "../../../extensions/generators/contract/generator.ts"
import { repairPlan } from "../../../actors/project/contract/plan.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { generatorIconPath } from "../../components/emoji-icons.ts"
import { icon } from "../../components/icon.ts"
import "../../components/node-alert.ts"
import "../../components/schema-form.ts"
import { outputKindLabels } from "../../components/studio-labels.ts"
import type { NodeEventMap } from "../../shell/events.ts"
import { LateHeading } from "../../shell/heading-focus.ts"
import { navigate } from "../../shell/router.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

/**
 * The roles of the steps a run of the generator has, in order: the same repair pass as the run's
 * (actors/project/planning.ts).
 */
const plannedRoles = (generator: Generator): ReadonlyArray<string> =>
  repairPlan({
    tasks: generator.steps.map((step) => ({
      id: step.id,
      title: step.title,
      description: step.instruction,
      role: step.role,
      skills: step.skills,
      tier: step.tier,
      dependsOn: step.dependsOn
    }))
  }).plan.tasks.map((task) => task.role)

@customElement("studio-generator")
export class StudioGenerator extends LitElement {
  /** The generator's slug or id. */
  @property() accessor slug = ""

  /** The earlier run (a project id) whose inputs fill the form; "" for the form's defaults. */
  @property() accessor from = ""

  private readonly _generator = new ApiResource(this, (client) =>
    client.studioGenerators.getGenerator({ path: { id: this.slug } })
  )

  private readonly _earlier = new ApiResource(
    this,
    (client) => client.studioProjects.getProject({ path: { id: this.from } }),
    { loadOnConnect: false }
  )

  private readonly _starting = new ApiAction(this)

  // Named, though nothing reads it: the heading is drawn once the generator has loaded.
  private readonly _heading = new LateHeading(this)

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("from")) {
      this._earlier.value = null
      this._earlier.error = ""
      if (this.from !== "") void this._earlier.reload()
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    // Connecting loaded the first slug; another slug (history) is another generator.
    if (changed.has("slug") && changed.get("slug") !== undefined) {
      this._generator.value = null
      void this._generator.reload()
    }
  }

  protected override render() {
    return html`
      <p class="back"><a href="/studio">← All generators</a></p>
      <node-alert .message=${this._generator.error}></node-alert>
      ${this._generator.render("Loading the generator…", (generator) => this._renderGenerator(generator))}
    `
  }

  private _renderGenerator(generator: Generator) {
    const busy = this._starting.busy
    const roles = plannedRoles(generator)
    return html`
      <h1 tabindex="-1"><span class="picture">${icon(generatorIconPath(generator.icon))}</span>${generator.name}</h1>
      <p class="description">${generator.description}</p>
      <p class="muted">
        Makes: ${generator.outputKinds.map((kind) => outputKindLabels[kind]).join(", ")} ·
        <span class="plan">${roles.length === 1 ? "1 step" : `${roles.length} steps`} (${roles.join(", ")})</span>
      </p>
      <section class="card" aria-labelledby="form-title">
        <h2 id="form-title">Inputs</h2>
        <node-alert .message=${this._earlier.error}></node-alert>
        ${
          this.from !== "" && this._earlier.value === null && this._earlier.error === ""
            ? html`<p class="muted" role="status">Loading the earlier run's inputs…</p>`
            : html`<schema-form
              .schema=${generator.inputsSchema}
              .values=${this._earlierInputs(generator)}
              .submitLabel=${busy ? "Starting…" : "Start the run"}
              ?busy=${busy}
              @schema-form-submit=${this._start}
            ></schema-form>`
        }
        <node-alert .message=${this._starting.error}></node-alert>
      </section>
    `
  }

  /** The earlier run's inputs, when it ran this generator. */
  private _earlierInputs(generator: Generator): Readonly<Record<string, unknown>> | null {
    const project = this._earlier.value?.project
    if (project === undefined || project.generatorId !== generator.id) return null
    const inputs = project.inputs
    return typeof inputs === "object" && inputs !== null && !Array.isArray(inputs)
      ? (inputs as Record<string, unknown>)
      : null
  }

  private readonly _start = (event: NodeEventMap["schema-form-submit"]): void => {
    const generator = this._generator.value
    if (generator === null || this._starting.busy) return
    void this._starting.run(
      (client) =>
        client.studioProjects.createProject({
          payload: { generatorId: generator.id, inputs: { ...event.detail.values } }
        }),
      (project) => navigate(`/studio/${encodeURIComponent(project.id)}`)
    )
  }

  static override styles = [
    sharedStyles,
    css`
      h1 {
        display: flex;
        width: fit-content;
        align-items: center;
        gap: var(--node-space-3);
      }
      h1 .picture {
        display: grid;
        place-items: center;
        width: 44px;
        height: 44px;
        flex: none;
        border-radius: var(--node-radius);
        background: var(--node-accent-soft);
        color: var(--node-accent);
        --node-icon-size: 26px;
      }
      h1:focus {
        outline: none;
      }
      h1:focus-visible {
        outline: 3px solid var(--node-focus);
        outline-offset: 2px;
      }
      .description {
        max-width: 40rem;
      }
      /* The card is as wide as its form: a wide empty card reads as something missing. */
      section.card {
        max-width: 48rem;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "studio-generator": StudioGenerator
  }
}

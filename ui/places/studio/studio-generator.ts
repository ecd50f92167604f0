/**
 * One generator's input form, at `/studio?generator=<slug>`: its name, what it does and makes,
 * and the form drawn from its JSON Schema (`<schema-form>`). Starting sends the typed values
 * (`POST /api/studio/projects { generatorId, inputs }`) and goes to the new project; the node's
 * refusal (inputs that do not fit the form, a generator that no longer validates) is told in
 * its words. The heading takes the keyboard when the form opens.
 */
import { css, html, LitElement, type PropertyValues } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Generator } from "../../../studio/generators/generator.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { generatorIconPath } from "../../components/emoji-icons.ts"
import { icon } from "../../components/icon.ts"
import "../../components/node-alert.ts"
import "../../components/schema-form.ts"
import { outputKindLabels } from "../../components/studio-labels.ts"
import type { NodeEventMap } from "../../shell/events.ts"
import { navigate } from "../../shell/router.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("studio-generator")
export class StudioGenerator extends LitElement {
  /** The generator's slug or id. */
  @property() accessor slug = ""

  private readonly _generator = new ApiResource(this, (client) =>
    client.studioGenerators.getGenerator({ path: { idOrSlug: this.slug } })
  )

  private readonly _starting = new ApiAction(this)

  /** The generator whose heading took the keyboard, so a reload does not take it again. */
  private _focused: string | null = null

  protected override updated(changed: PropertyValues<this>): void {
    // Connecting loaded the first slug; another slug (history) is another generator.
    if (changed.has("slug") && changed.get("slug") !== undefined) {
      this._generator.value = null
      void this._generator.reload()
    }
    const generator = this._generator.value
    if (generator !== null && this._focused !== generator.id) {
      this._focused = generator.id
      this.renderRoot.querySelector<HTMLElement>("h1")?.focus()
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
    return html`
      <h1 tabindex="-1"><span class="picture">${icon(generatorIconPath(generator.icon))}</span>${generator.name}</h1>
      <p class="description">${generator.description}</p>
      <p class="muted">
        Makes: ${generator.outputKinds.map((kind) => outputKindLabels[kind]).join(", ")} ·
        ${generator.steps.length === 1 ? "1 step" : `${generator.steps.length} steps`}
        (${generator.steps.map((step) => step.role).join(", ")})
      </p>
      <section class="card" aria-labelledby="form-title">
        <h2 id="form-title">Inputs</h2>
        <schema-form
          .schema=${generator.inputsSchema}
          .submitLabel=${busy ? "Starting…" : "Start the run"}
          ?busy=${busy}
          @schema-form-submit=${this._start}
        ></schema-form>
        <node-alert .message=${this._starting.error}></node-alert>
      </section>
    `
  }

  private readonly _start = (event: NodeEventMap["schema-form-submit"]): void => {
    const generator = this._generator.value
    if (generator === null || this._starting.busy) return
    void this._starting.run(
      (client) =>
        client.studioProjects.createProject({ payload: { generatorId: generator.id, inputs: { ...event.detail.values } } }),
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

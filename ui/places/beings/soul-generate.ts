/**
 * The owner has a new soul generated (`POST /api/souls/:beingId/generate`): from an archetype, or
 * one the seed picks; for a role; from a seed (the same seed gives the same soul, and no model is
 * called). It replaces the soul whole; the newer soul goes up as `soul-changed`.
 */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import { archetypeNames, type ArchetypeName, type GenerateRequest } from "../../../extensions/souls/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit, type SubmittedForm } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { containerStyles, inlineFormStyles, sharedStyles } from "../../styles/shared-styles.ts"

const isArchetype = (name: string): name is ArchetypeName => (archetypeNames as ReadonlyArray<string>).includes(name)

@customElement("soul-generate")
export class SoulGenerate extends LitElement {
  @property() accessor beingId = ""

  private readonly _generate = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="generate-title">
      <h2 id="generate-title">Generate a soul</h2>
      <p class="muted">A new soul from an archetype, replacing this one whole. The same seed always gives the same soul; no model is asked.</p>
      <form class="inline" @submit=${onSubmit(this._send)}>
        <label>Archetype
          <select name="archetype">
            <option value="">Let the seed choose</option>
            ${archetypeNames.map((name) => html`<option value=${name}>${name}</option>`)}
          </select>
        </label>
        <label>Role<input name="role" maxlength="60" placeholder="citizen" /></label>
        <label>Seed<input name="seed" maxlength="200" placeholder="the being's id" /></label>
        <div class="actions"><button type="submit" class="secondary" ?disabled=${this._generate.busy}>Generate</button></div>
      </form>
      <node-alert .message=${this._generate.error}></node-alert>
      <node-alert kind="success" .message=${this._generate.notice}></node-alert>
    </section>`
  }

  private readonly _send = async ({ field }: SubmittedForm): Promise<void> => {
    const archetype = field("archetype")
    const payload: GenerateRequest = {
      ...(isArchetype(archetype) ? { archetype } : {}),
      ...(field("role").trim() === "" ? {} : { role: field("role") }),
      ...(field("seed").trim() === "" ? {} : { seed: field("seed") })
    }
    await this._generate.run(
      (client) => client.souls.generateSoul({ path: { beingId: this.beingId }, payload }),
      (generated) => {
        const { archetype: from, source: _source, ...soul } = generated
        fireEvent(this, "soul-changed", { soul })
        return `A new soul, generated from the ${from} archetype.`
      }
    )
  }

  static override styles = [sharedStyles, containerStyles, inlineFormStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "soul-generate": SoulGenerate
  }
}

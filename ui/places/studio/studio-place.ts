/**
 * The studio, at `/studio`: the generator gallery, the brief box and the portfolio of the
 * person's projects. `/studio?generator=<slug>` shows that generator's input form instead (a
 * link, so the browser's back button returns to the gallery); `&from=<projectId>` fills it with
 * that earlier run's inputs ("Run it again"). Starting a run, from either,
 * goes to the project's page.
 */
import { html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./studio-brief.ts"
import "./studio-gallery.ts"
import "./studio-generator.ts"
import "./studio-portfolio.ts"

@customElement("studio-place")
export class StudioPlace extends LitElement {
  /** The slug (or id) of the generator whose form is open; "" for the gallery. */
  @property() accessor generator = ""

  /** The project whose inputs fill the form; "" for the form's defaults. */
  @property() accessor from = ""

  protected override render() {
    if (this.generator !== "")
      return html`<studio-generator .slug=${this.generator} .from=${this.from}></studio-generator>`
    return html`
      <h1>Studio</h1>
      <p class="muted">Pick a generator and fill in its form, or say in a sentence what you want made. Either starts a run.</p>
      <studio-gallery></studio-gallery>
      <div class="split even">
        <studio-brief></studio-brief>
        <studio-portfolio></studio-portfolio>
      </div>
    `
  }

  static override styles = [sharedStyles, containerStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "studio-place": StudioPlace
  }
}

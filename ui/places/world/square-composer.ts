/**
 * Saying something in the square (`POST /api/beings/square`), and for the owner the square's
 * life: one beat (a few citizens post in character) and a greeting (a few welcome the owner).
 * What the node answers goes up as `square-posted`, so the feed shows it even before its
 * `square.post` arrives.
 */
import { css, html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Post } from "../../../extensions/souls/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit, type SubmittedForm } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

const citizensWords = (posts: ReadonlyArray<Post>) => posts.map((post) => post.authorName).join(", ")

@customElement("square-composer")
export class SquareComposer extends LitElement {
  /** Whether the signed-in being is the owner, who may run the square's life. */
  @property({ type: Boolean }) accessor owner = false

  private readonly _post = new ApiAction(this)

  private readonly _life = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="compose-title">
      <h2 id="compose-title">Say something</h2>
      <form @submit=${onSubmit(this._send)}>
        <label>Your post<textarea name="content" rows="3" required maxlength="1000" placeholder="What is on your mind?"></textarea></label>
        <node-alert .message=${this._post.error}></node-alert>
        <div class="actions"><button type="submit" ?disabled=${this._post.busy}>Post to the square</button></div>
      </form>
      ${
        this.owner
          ? html`<div class="life">
            <h3>The square's life</h3>
            <p class="muted">A few citizens speak, in their own voice (from the cheap tier when a model is bound, else from their own lines).</p>
            <div class="actions">
              <button type="button" class="secondary" ?disabled=${this._life.busy} @click=${() => this._beat("tick")}>One beat of life</button>
              <button type="button" class="secondary" ?disabled=${this._life.busy} @click=${() => this._beat("greet")}>Greet me</button>
            </div>
            <node-alert .message=${this._life.error}></node-alert>
            <node-alert kind="success" .message=${this._life.notice}></node-alert>
          </div>`
          : null
      }
    </section>`
  }

  private readonly _send = async ({ clear, field }: SubmittedForm): Promise<void> => {
    const ok = await this._post.run(
      (client) => client.beings.post({ payload: { content: field("content") } }),
      (post) => {
        fireEvent(this, "square-posted", { posts: [post] })
      }
    )
    if (ok) clear()
  }

  private async _beat(kind: "tick" | "greet"): Promise<void> {
    await this._life.run(
      (client) => (kind === "tick" ? client.beings.lifeTick() : client.beings.lifeGreet()),
      ({ posts }) => {
        fireEvent(this, "square-posted", { posts })
        return kind === "tick" ? `${citizensWords(posts)} spoke.` : `${citizensWords(posts)} greeted you.`
      }
    )
  }

  static override styles = [
    sharedStyles,
    css`
      form {
        max-width: none;
      }
      .life {
        border-top: 1px solid var(--node-border);
        margin-top: var(--node-space-4);
        padding-top: var(--node-space-4);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "square-composer": SquareComposer
  }
}

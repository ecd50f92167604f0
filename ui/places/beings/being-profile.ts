/**
 * A person changes their own being (`PATCH /api/beings/me`): the name others see and the handle.
 * The node's answer is the account as `/api/auth/me` now answers it, sent up as `session-changed`
 * so the whole app shows the new name at once.
 */
import { html, LitElement, nothing } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import "../../components/node-alert.ts"
import { onSubmit, type SubmittedForm } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("being-profile")
export class BeingProfile extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  private readonly _save = new ApiAction(this)

  protected override render() {
    if (this.being === null) return nothing
    return html`<section class="card" aria-labelledby="profile-title">
      <h2 id="profile-title">Your name and handle</h2>
      <form @submit=${onSubmit(this._send)}>
        <label>Name<input name="displayName" required maxlength="80" autocomplete="name" .value=${this.being.displayName} /></label>
        <label>Handle<input name="handle" required pattern="[a-z0-9_]{3,30}" autocomplete="username" .value=${this.being.handle} /></label>
        <node-alert .message=${this._save.error}></node-alert>
        <node-alert kind="success" .message=${this._save.notice}></node-alert>
        <div class="actions"><button type="submit" ?disabled=${this._save.busy}>Save</button></div>
      </form>
    </section>`
  }

  private readonly _send = async ({ field }: SubmittedForm): Promise<void> => {
    const payload = { displayName: field("displayName"), handle: field("handle") }
    await this._save.run(
      (client) => client.beings.patchMe({ payload }),
      (being) => {
        fireEvent(this, "session-changed", { being })
        return "Saved. Recompile your soul's prompt for it to speak as your new name."
      }
    )
  }

  static override styles = [sharedStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "being-profile": BeingProfile
  }
}

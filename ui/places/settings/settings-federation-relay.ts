/**
 * This node's relay (NodeRelayState, `GET /api/federation/relay`): the relay it is reached
 * through when nobody can dial it (SVC_RELAY_ENDPOINT, a setting: no form changes it), the
 * relay's pinned did, the enrolment, the counts and the last error; "Enrol now" asks the relay at
 * once instead of at the relay loop's next turn. The federation panel renders it.
 */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { NodeRelayState } from "../../../extensions/federation/contract/relay.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("settings-federation-relay")
export class SettingsFederationRelay extends LitElement {
  private readonly _state = new ApiResource(this, (client) => client.federation.relayState())

  private readonly _enrolling = new ApiAction(this)

  protected override render() {
    return html`
      <section class="card" aria-labelledby="relay-title">
        <h2 id="relay-title">Relay</h2>
        <p class="muted">Where other nodes leave messages for this one when they cannot reach it.</p>
        <node-alert .message=${this._enrolling.error || this._state.error}></node-alert>
        <node-alert kind="success" .message=${this._enrolling.notice}></node-alert>
        ${this._state.render("Loading the relay…", (state) => this._renderState(state))}
      </section>
    `
  }

  private _renderState(state: NodeRelayState) {
    if (state.endpoint === null) {
      return html`<p class="relay-none">No relay is set. The node's operator sets one with <code>SVC_RELAY_ENDPOINT</code>.</p>`
    }
    return html`
      <dl class="relay">
        <dt>Endpoint</dt><dd>${state.endpoint}</dd>
        <dt>Relay did</dt><dd class="did">${state.relayDid ?? "Not enrolled yet"}</dd>
        <dt>Enrolled</dt>
        <dd>${state.enrolled && state.expiresAt !== null ? `Yes, until ${formatDateTime(state.expiresAt)}` : "No"}</dd>
        ${state.limits === null ? "" : html`<dt>Holds</dt><dd>Up to ${state.limits.maxQueued} messages, each for ${Math.round(state.limits.holdSeconds / 86_400)} days</dd>`}
        <dt>Collected</dt><dd>${state.collected}</dd>
        <dt>Left at peers' relays</dt><dd>${state.deposited}</dd>
        ${state.lastError === null ? "" : html`<dt>Last error</dt><dd class="last-error">${state.lastError}</dd>`}
      </dl>
      <div class="actions">
        <button type="button" ?disabled=${this._enrolling.busy} @click=${this._enrol}>Enrol now</button>
      </div>
    `
  }

  private readonly _enrol = async (): Promise<void> => {
    let refusal = ""
    await this._enrolling.run(
      (client) => client.federation.enrolRelay(),
      (enrolment) => {
        if (enrolment.accepted) return `Enrolled: ${enrolment.held} message${enrolment.held === 1 ? "" : "s"} waiting.`
        refusal = `Not enrolled: ${enrolment.reason}`
      }
    )
    // A relay's refusal is an answer, not a failed call: it reads as the error it is for the person.
    if (refusal !== "") this._enrolling.error = refusal
    await this._state.reload()
  }

  static override styles = [sharedStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "settings-federation-relay": SettingsFederationRelay
  }
}

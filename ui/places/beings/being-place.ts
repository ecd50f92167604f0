/**
 * One being, at `/beings/<id>`: who it is (a citizen's persona, online or not, a line about its
 * purpose and mood) and its soul. The owner edits the soul, has one generated, drifts its mood and
 * recompiles its prompt; the being itself may drift and recompile its own, and a person changes
 * their own name and handle here. Each change's answer loads the page again (the summary follows
 * the soul). Live: `presence.update` for this being moves its dot; every `hello` of the live
 * channel loads the page again, which is how a tab that was away catches up.
 */
import { css, html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { BeingDetail } from "../../../extensions/souls/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { fireEvent } from "../../shell/events.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import { avatarStyles, beingAvatar, presence } from "./being-avatar.ts"
import "./being-did.ts"
import "./being-profile.ts"
import "./soul-editor.ts"
import "./soul-generate.ts"
import "./soul-mood.ts"
import "./soul-view.ts"

const kindWords: Record<BeingDetail["kind"], string> = {
  human: "Person",
  citizen: "Citizen",
  agent: "Agent",
  seed: "Device"
}

@customElement("being-place")
export class BeingPlace extends LitElement {
  @property() accessor beingId = ""

  /** Who is signed in: the owner edits souls; a being changes its own. */
  @property({ attribute: false }) accessor being: Being | null = null

  private readonly _detail = new ApiResource(this, (client) => client.beings.getBeing({ path: { id: this.beingId } }), {
    loadOnConnect: false
  })

  /** Presence heard since the last load. */
  @state() private accessor _online: boolean | null = null

  private readonly _load = new LiveLoad(this, () => {
    this._online = null
    void this._detail.reload()
  })

  private readonly _live = new LiveEvents(this, {
    "presence.update": ({ beingId, status }) => {
      if (beingId === this.beingId) this._online = status === "online"
    }
  })

  /** The heading is drawn once the being has loaded: the shell gives it the keyboard then. */
  private _headingDrawn = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.addEventListener("soul-changed", this._reload)
    this.addEventListener("session-changed", this._reload)
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.removeEventListener("soul-changed", this._reload)
    this.removeEventListener("session-changed", this._reload)
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Another being's page in the same element (a link from one being to another); the first is LiveLoad's.
    if (changed.has("beingId") && this.hasUpdated) {
      this._headingDrawn = false
      this._load.request()
    }
  }

  protected override updated(): void {
    if (this._headingDrawn || this._detail.value === null) return
    this._headingDrawn = true
    fireEvent(this, "place-heading", {})
  }

  protected override render() {
    return html`
      <p class="back"><a href="/beings">← Beings</a></p>
      <node-alert .message=${this._detail.error}></node-alert>
      ${this._detail.render("Loading the being…", (detail) => this._renderBeing(detail))}
    `
  }

  private _renderBeing(detail: BeingDetail) {
    const me = this.being
    const self = me !== null && me.id === detail.id
    const owner = me?.isOwner === true
    return html`
      <header class="who">
        ${beingAvatar(detail)}
        <div>
          <h1 tabindex="-1">${detail.displayName}</h1>
          <p class="muted line">
            <span>@${detail.handle}</span>
            <span class="badge" data-tone="active">${detail.citizen === undefined ? kindWords[detail.kind] : `${kindWords[detail.kind]} · ${detail.citizen.role}`}</span>
            ${detail.isOwner ? html`<span class="badge">Owner</span>` : nothing}
            ${presence(this._online ?? detail.online)}
          </p>
        </div>
      </header>
      ${detail.citizen === undefined ? nothing : html`<p class="lead">${detail.citizen.description}</p>`}
      ${detail.summary === undefined ? nothing : html`<p class="summary">${detail.summary}</p>`}
      <div class="split">
        <div>
          <soul-view .soul=${detail.soul ?? null}></soul-view>
        </div>
        <div>
          ${self && detail.kind === "human" ? html`<being-profile .being=${me}></being-profile>` : nothing}
          ${self ? html`<being-did></being-did>` : nothing}
          ${self || owner ? html`<soul-mood .beingId=${detail.id}></soul-mood>` : nothing}
          ${owner ? html`<soul-generate .beingId=${detail.id}></soul-generate>` : nothing}
        </div>
      </div>
      ${owner ? html`<soul-editor .beingId=${detail.id} .soul=${detail.soul ?? null}></soul-editor>` : nothing}
    `
  }

  private readonly _reload = (): void => this._load.request()

  static override styles = [
    sharedStyles,
    containerStyles,
    avatarStyles,
    css`
      .who {
        display: flex;
        align-items: center;
        gap: var(--node-space-4);
        margin: 0 0 var(--node-space-3);
        min-width: 0;
      }
      .who > div {
        min-width: 0;
      }
      .who .avatar {
        width: 56px;
        height: 56px;
        font-size: var(--node-font-size-lg);
        --node-icon-size: 28px;
      }
      .who h1 {
        margin: 0;
      }
      .line {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--node-space-1) var(--node-space-2);
        margin: var(--node-space-1) 0 0;
        overflow-wrap: anywhere;
      }
      .lead,
      .summary {
        max-width: var(--node-reading-max);
      }
      .summary {
        color: var(--node-muted);
        margin: 0 0 var(--node-space-5);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "being-place": BeingPlace
  }
}

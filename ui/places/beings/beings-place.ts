/**
 * Every being of the node, at `/beings`: people, the citizens of the square (with their persona's
 * avatar and role) and the beings agents wear, each with whether it is online. Live: a
 * `presence.update` moves the dot at once; every `hello` of the live channel loads the list again,
 * which is how a tab that was away catches up. Each name leads to the being's page.
 */
import { css, html, LitElement } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { ListedBeing } from "../../../extensions/souls/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { avatarStyles, beingAvatar, presence } from "./being-avatar.ts"

const groups = [
  ["human", "People", "Everyone with an account on this node."],
  ["citizen", "Citizens", "The node's own citizens: they live in the square and speak in their own voice."],
  ["agent", "Agents", "The beings that saved agents wear at work."]
] as const

/** What a citizen's badge or a person's says: a role, the owner, you. */
const badges = (being: ListedBeing, me: Being | null) => [
  ...(being.citizen === undefined ? [] : [html`<span class="badge" data-tone="active">${being.citizen.role}</span>`]),
  ...(being.isOwner ? [html`<span class="badge">Owner</span>`] : []),
  ...(being.id === me?.id ? [html`<span class="badge" data-tone="good">You</span>`] : [])
]

@customElement("beings-place")
export class BeingsPlace extends LitElement {
  /** Who is signed in (to mark "You"). */
  @property({ attribute: false }) accessor being: Being | null = null

  private readonly _beings = new ApiResource(this, (client) => client.beings.listBeings(), { loadOnConnect: false })

  /** Presence heard since the last load, by being. */
  @state() private accessor _presence: ReadonlyMap<string, boolean> = new Map()

  private readonly _load = new LiveLoad(this, () => {
    this._presence = new Map()
    void this._beings.reload()
  })

  private readonly _live = new LiveEvents(this, {
    "presence.update": ({ beingId, status }) => {
      this._presence = new Map([...this._presence, [beingId, status === "online"]])
    }
  })

  protected override render() {
    return html`
      <h1 tabindex="-1">Beings</h1>
      <p class="muted">Everyone who lives on this node: people, the citizens of the square and the beings agents wear. Open one to see its soul.</p>
      <node-alert .message=${this._beings.error}></node-alert>
      ${this._beings.render("Loading the beings…", (beings) =>
        groups.map(([kind, title, words]) =>
          this._renderGroup(
            kind,
            title,
            words,
            beings.filter((being) => being.kind === kind)
          )
        )
      )}
    `
  }

  private _renderGroup(kind: string, title: string, words: string, beings: ReadonlyArray<ListedBeing>) {
    if (beings.length === 0 && kind === "agent") return null
    return html`<section class="card" aria-labelledby="group-${kind}">
      <h2 id="group-${kind}">${title}</h2>
      <p class="muted">${words}</p>
      ${
        beings.length === 0
          ? html`<p class="muted">Nobody yet.</p>`
          : html`<ul class="beings">
            ${beings.map(
              (being) => html`<li data-being=${being.id}>
              ${beingAvatar(being)}
              <div class="who">
                <a href="/beings/${encodeURIComponent(being.id)}">${being.displayName}</a>
                <span class="muted handle">@${being.handle}</span>
                <span class="badges">${badges(being, this.being)}</span>
              </div>
              ${presence(this._presence.get(being.id) ?? being.online)}
            </li>`
            )}
          </ul>`
      }
    </section>`
  }

  static override styles = [
    sharedStyles,
    avatarStyles,
    css`
      .beings {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 18rem), 1fr));
        gap: var(--node-space-2) var(--node-space-4);
      }
      .beings li {
        display: flex;
        align-items: center;
        gap: var(--node-space-3);
        padding: var(--node-space-2) 0;
        min-width: 0;
      }
      .who {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: 0 var(--node-space-2);
        min-width: 0;
        flex: 1;
      }
      .who a {
        font-weight: var(--node-font-weight-semibold);
        overflow-wrap: anywhere;
      }
      .handle {
        font-size: var(--node-font-size-sm);
        overflow-wrap: anywhere;
      }
      .badges {
        display: inline-flex;
        flex-wrap: wrap;
        gap: var(--node-space-1);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "beings-place": BeingsPlace
  }
}

/**
 * The rail: the places that exist for this person (Desktop, Studio, Work and Settings; Admin
 * only for the owner; Log in, Register and Waitlist when signed out), the sign-out button, and, while
 * signed in, the state of the live channel (a dot and a word: live, connecting, reconnecting).
 * A column on the left on wide screens, a bar across the top under 700px.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Being } from "../../host/auth/contract/records.ts"
import { request } from "../api/client.ts"
import "../components/node-alert.ts"
import type { LiveStatus } from "../live/live-channel.ts"
import { LiveStatusController } from "../live/live-controllers.ts"
import { sharedStyles } from "../styles/shared-styles.ts"
import { fireEvent } from "./events.ts"

interface RailItem {
  readonly path: string
  readonly label: string
}

const signedInItems = (being: Being): ReadonlyArray<RailItem> => [
  { path: "/", label: "Desktop" },
  { path: "/studio", label: "Studio" },
  { path: "/work", label: "Work" },
  { path: "/settings", label: "Settings" },
  ...(being.isOwner ? [{ path: "/admin", label: "Admin" }] : [])
]

const signedOutItems: ReadonlyArray<RailItem> = [
  { path: "/login", label: "Log in" },
  { path: "/register", label: "Register" },
  { path: "/waitlist", label: "Waitlist" }
]

const liveWords: Record<Exclude<LiveStatus, "off">, { readonly label: string; readonly title: string }> = {
  connecting: { label: "Connecting…", title: "Connecting to the node for live updates." },
  live: { label: "Live", title: "Connected: changes appear as they happen." },
  reconnecting: {
    label: "Reconnecting…",
    title: "The connection to the node dropped. Trying again; what changed meanwhile appears once it is back."
  }
}

@customElement("node-rail")
export class NodeRail extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  @property() accessor path = "/"

  private readonly _live = new LiveStatusController(this)

  @state() private accessor _signingOut = false

  @state() private accessor _error = ""

  protected override render() {
    const items = this.being === null ? signedOutItems : signedInItems(this.being)
    return html`
      <nav aria-label="Places">
        <span class="brand">Node</span>
        <ul>
          ${items.map(
            (item) => html`<li>
              <a href=${item.path} aria-current=${this._isCurrent(item) ? "page" : nothing}>${item.label}</a>
            </li>`
          )}
        </ul>
        ${this._renderLive()}
        ${this.being === null
          ? nothing
          : html`<button class="secondary sign-out" type="button" ?disabled=${this._signingOut} @click=${this._signOut}>
              Sign out
            </button>`}
      </nav>
      <node-alert .message=${this._error}></node-alert>
    `
  }

  /** The item's own path, or a page inside it (a project's page is in the Studio). */
  private _isCurrent(item: RailItem): boolean {
    return item.path === this.path || (item.path !== "/" && this.path.startsWith(`${item.path}/`))
  }

  private _renderLive() {
    const status = this._live.status
    if (this.being === null || status === "off") return nothing
    const words = liveWords[status]
    return html`<p class="live" data-state=${status} title=${words.title}>
      <span class="dot" aria-hidden="true"></span>
      <span class="live-label"><span class="sr-only">Live updates: </span>${words.label}</span>
    </p>`
  }

  private async _signOut(): Promise<void> {
    this._signingOut = true
    this._error = ""
    const result = await request((client) => client.auth.logout())
    this._signingOut = false
    if (result.ok || result.failure.code === "unauthorized") fireEvent(this, "session-changed", { being: null })
    else this._error = result.failure.message
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        background: var(--node-surface);
        border-right: 1px solid var(--node-border);
        padding: var(--node-gap) 12px;
      }
      nav {
        display: flex;
        flex-direction: column;
        gap: 8px;
        position: sticky;
        top: var(--node-gap);
      }
      .brand {
        font-weight: 700;
        font-size: 1.1rem;
        padding: 0 10px 8px;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
        gap: 4px;
      }
      a {
        display: flex;
        align-items: center;
        min-height: 40px;
        padding: 6px 10px;
        border-radius: 6px;
        color: var(--node-text);
        text-decoration: none;
        font-weight: 600;
      }
      a:hover {
        background: var(--node-surface-raised);
      }
      a[aria-current="page"] {
        background: var(--node-accent);
        color: var(--node-accent-text);
      }
      .sign-out {
        margin-top: 8px;
      }
      .live {
        display: flex;
        align-items: center;
        gap: 6px;
        margin: 4px 0 0;
        padding: 0 10px;
        font-size: 0.8rem;
        color: var(--node-muted);
      }
      .dot {
        width: 8px;
        height: 8px;
        border-radius: 50%;
        background: var(--node-muted);
        flex: none;
      }
      .live[data-state="live"] .dot {
        background: var(--node-success);
      }
      .live[data-state="reconnecting"] .dot {
        background: transparent;
        border: 2px solid var(--node-danger);
      }
      @media (max-width: 700px) {
        :host {
          border-right: none;
          border-bottom: 1px solid var(--node-border);
          padding: 8px 12px;
        }
        nav {
          flex-direction: row;
          flex-wrap: wrap;
          align-items: center;
          position: static;
        }
        .brand {
          padding: 0 6px 0 0;
        }
        ul {
          flex-direction: row;
          flex-wrap: wrap;
        }
        .live {
          margin: 0 0 0 auto;
          padding: 0 4px;
        }
        .live-label {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip-path: inset(50%);
          white-space: nowrap;
        }
        .sign-out {
          margin: 0 0 0 auto;
        }
        .live + .sign-out {
          margin-left: 8px;
        }
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "node-rail": NodeRail
  }
}

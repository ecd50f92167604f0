/**
 * The rail: the places that exist for this person (Home and Settings; Admin only for the
 * owner; Log in, Register and Waitlist when signed out) and the sign-out button. A column on
 * the left on wide screens, a bar across the top under 700px.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import type { Being } from "../../host/auth/schemas.ts"
import { request } from "../api/client.ts"
import "../components/node-alert.ts"
import { sharedStyles } from "../styles/shared-styles.ts"
import { fireEvent } from "./events.ts"

interface RailItem {
  readonly path: string
  readonly label: string
}

const signedInItems = (being: Being): ReadonlyArray<RailItem> => [
  { path: "/", label: "Home" },
  { path: "/settings", label: "Settings" },
  ...(being.isOwner ? [{ path: "/admin", label: "Admin" }] : [])
]

const signedOutItems: ReadonlyArray<RailItem> = [
  { path: "/login", label: "Log in" },
  { path: "/register", label: "Register" },
  { path: "/waitlist", label: "Waitlist" }
]

@customElement("node-rail")
export class NodeRail extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  @property() accessor path = "/"

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
              <a href=${item.path} aria-current=${item.path === this.path ? "page" : nothing}>${item.label}</a>
            </li>`
          )}
        </ul>
        ${this.being === null
          ? nothing
          : html`<button class="secondary sign-out" type="button" ?disabled=${this._signingOut} @click=${this._signOut}>
              Sign out
            </button>`}
      </nav>
      <node-alert .message=${this._error}></node-alert>
    `
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
        .sign-out {
          margin: 0 0 0 auto;
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

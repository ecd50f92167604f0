/**
 * The rail: the places that exist for this person (Desktop, Studio, Work, Spaces, Twin, Muse, Messages, Beings,
 * World, Market and Settings; Moderation and Admin only for the owner; Log in, Register and Waitlist when signed out),
 * the sign-out button, and, while
 * signed in, the state of the live channel (a dot and a word: live, connecting, reconnecting).
 * A column on the left on wide screens; under 700px a bar across the top in two rows that
 * never wrap: the brand, the live state and signing out, then the first places as tabs and a
 * "More" tab whose sheet lists the rest (a phone has room for five tabs with whole labels, not
 * eleven). The sheet is a popover: the browser closes it on Escape or a click outside, puts the
 * keyboard back on "More" and tells screen readers whether it is open; choosing a place closes it.
 */
import { html, LitElement, nothing, type PropertyValues } from "lit"
import { customElement, property, state } from "lit/decorators.js"
import {
  mdiAccountClockOutline,
  mdiAccountGroupOutline,
  mdiSitemapOutline,
  mdiAccountPlusOutline,
  mdiClipboardListOutline,
  mdiCogOutline,
  mdiCreationOutline,
  mdiDotsHorizontal,
  mdiEarth,
  mdiGavel,
  mdiHeadHeartOutline,
  mdiHexagonMultipleOutline,
  mdiLogin,
  mdiLogout,
  mdiMessageTextOutline,
  mdiPaletteSwatchOutline,
  mdiPuzzleOutline,
  mdiShieldAccountOutline,
  mdiStorefrontOutline,
  mdiViewDashboardOutline
} from "@mdi/js"
import type { Being } from "../../extensions/accounts/contract/records.ts"
import type { InstalledPlugin } from "../../kernel/contract/plugins.ts"
import { request } from "../api/client.ts"
import { installedPlugins } from "../api/installed-plugins.ts"
import { icon } from "../components/icon.ts"
import "../components/node-alert.ts"
import type { LiveStatus } from "../live/live-channel.ts"
import { LiveStatusController } from "../live/live-controllers.ts"
import { fireEvent } from "./events.ts"
import { nodeRailStyles } from "./node-rail-styles.ts"

export interface RailItem {
  readonly path: string
  readonly label: string
  readonly icon: string
}

export const signedInItems = (being: Being): ReadonlyArray<RailItem> => [
  // The first four are a phone's tabs: the places a person opens most.
  { path: "/", label: "Desktop", icon: mdiViewDashboardOutline },
  { path: "/muse", label: "Muse", icon: mdiCreationOutline },
  { path: "/studio", label: "Studio", icon: mdiPaletteSwatchOutline },
  { path: "/work", label: "Work", icon: mdiClipboardListOutline },
  { path: "/messages", label: "Messages", icon: mdiMessageTextOutline },
  { path: "/twin", label: "Twin", icon: mdiHeadHeartOutline },
  { path: "/spaces", label: "Spaces", icon: mdiSitemapOutline },
  { path: "/beings", label: "Beings", icon: mdiAccountGroupOutline },
  { path: "/world", label: "World", icon: mdiEarth },
  { path: "/market", label: "Market", icon: mdiStorefrontOutline },
  { path: "/settings", label: "Settings", icon: mdiCogOutline },
  ...(being.isOwner
    ? [
        { path: "/moderation", label: "Moderation", icon: mdiGavel },
        { path: "/admin", label: "Admin", icon: mdiShieldAccountOutline }
      ]
    : [])
]

/** One item per module of an active plugin: every signed-in being may open every module. */
const moduleItems = (plugins: ReadonlyArray<InstalledPlugin>): ReadonlyArray<RailItem> =>
  plugins
    .filter((plugin) => plugin.status === "active")
    .flatMap((plugin) => plugin.contributions.filter((contribution) => contribution.kind === "module"))
    .map((module) => ({
      path: `/m/${module.name}`,
      label: module.title ?? module.name,
      icon: module.icon ?? mdiPuzzleOutline
    }))

/** How many places keep a tab of their own on a phone; the rest go under "More". */
const phoneTabs = 4

const signedOutItems: ReadonlyArray<RailItem> = [
  { path: "/login", label: "Log in", icon: mdiLogin },
  { path: "/register", label: "Register", icon: mdiAccountPlusOutline },
  { path: "/waitlist", label: "Waitlist", icon: mdiAccountClockOutline }
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

  /** Whether the phone's "More" sheet is open, said as the button's aria-expanded. */
  @state() private accessor _moreOpen = false

  /** The modules' items, asked of the node whenever who is signed in changes. */
  @state() private accessor _modules: ReadonlyArray<RailItem> = []

  protected override render() {
    const items = this.being === null ? signedOutItems : [...signedInItems(this.being), ...this._modules]
    // One place more than fits needs no "More": it takes the tab "More" would have taken.
    const rest = items.length > phoneTabs + 1 ? items.slice(phoneTabs) : []
    return html`
      <nav aria-label="Places">
        <span class="brand">${icon(mdiHexagonMultipleOutline)}<span>Node</span></span>
        <ul>
          ${items.map((item, index) => html`<li class=${rest.length > 0 && index >= phoneTabs ? "beyond" : ""}>${this._link(item)}</li>`)}
          ${rest.length === 0 ? nothing : this._renderMore(rest)}
        </ul>
        ${this._renderLive()}
        ${
          this.being === null
            ? nothing
            : html`<button class="secondary sign-out" type="button" ?disabled=${this._signingOut} @click=${this._signOut}>
              ${icon(mdiLogout)}<span class="sign-out-label">Sign out</span>
            </button>`
        }
      </nav>
      <node-alert .message=${this._error}></node-alert>
    `
  }

  private _link(item: RailItem) {
    return html`<a href=${item.path} aria-current=${this._isCurrent(item) ? "page" : nothing}>${icon(item.icon)}<span>${item.label}</span></a>`
  }

  /**
   * The phone's "More" tab and its sheet of the places without a tab; hidden on wide screens, where every place has its
   * item.
   */
  private _renderMore(rest: ReadonlyArray<RailItem>) {
    const holdsCurrent = rest.some((item) => this._isCurrent(item))
    return html`<li class="more">
      <button type="button" class="more-button" popovertarget="more-places" aria-controls="more-places"
        aria-expanded=${this._moreOpen ? "true" : "false"} data-current=${holdsCurrent ? "true" : "false"}>
        ${icon(mdiDotsHorizontal)}<span>More</span><span class="sr-only"> places</span>
      </button>
      <div id="more-places" popover aria-label="More places" @click=${this._onMoreClick} @beforetoggle=${this._onMoreClosing} @toggle=${this._onMoreToggle}>
        <ul>
          ${rest.map((item) => html`<li>${this._link(item)}</li>`)}
        </ul>
      </div>
    </li>`
  }

  /**
   * The browser puts the keyboard back on the invoker only when opening moved it; here it stays on
   * "More" until the person tabs into the sheet, so closing (Escape, a click outside) puts it back.
   */
  private readonly _onMoreClosing = (event: ToggleEvent): void => {
    const sheet = event.currentTarget as HTMLElement
    if (event.newState === "closed" && sheet.contains(this.shadowRoot?.activeElement ?? null)) {
      this.renderRoot.querySelector<HTMLButtonElement>(".more-button")?.focus()
    }
  }

  private readonly _onMoreToggle = (event: ToggleEvent): void => {
    this._moreOpen = event.newState === "open"
  }

  /** Choosing a place closes the sheet (the router follows the link itself). */
  private readonly _onMoreClick = (event: MouseEvent): void => {
    const sheet = event.currentTarget as HTMLElement
    if (event.composedPath().some((node) => node instanceof HTMLAnchorElement)) sheet.hidePopover()
  }

  override connectedCallback(): void {
    super.connectedCallback()
    window.addEventListener("plugins-changed", this._onPluginsChanged)
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    window.removeEventListener("plugins-changed", this._onPluginsChanged)
  }

  /** An install or uninstall in Settings adds or takes away its modules' items at once. */
  private readonly _onPluginsChanged = (): void => {
    void this._loadModules()
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("being")) void this._loadModules()
  }

  private async _loadModules(): Promise<void> {
    const being = this.being
    if (being === null) {
      this._modules = []
      return
    }
    const result = await request(installedPlugins)
    // A module list that fails to load leaves the rail's own places; the module's place says more.
    if (this.being === being) this._modules = result.ok ? moduleItems(result.value) : []
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

  static override styles = nodeRailStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "node-rail": NodeRail
  }
}

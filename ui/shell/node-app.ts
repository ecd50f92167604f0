/**
 * The shell: asks the node who is signed in, then shows the rail and the place the path
 * names (fetching the place's code the first time it opens: ./place-loader.ts), and keeps the
 * tab's live channel open while someone is signed in. Places that need a session send a
 * signed-out person to /login; /login and /register send a signed-in one home. Whether a being may
 * open /admin is the node's answer, not ours: the admin place asks and shows the refusal. After a
 * navigation (not on the first load) the keyboard moves to the new place's heading, which screen
 * readers then read out.
 */
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { Being } from "../../extensions/accounts/contract/records.ts"
import { request } from "../api/client.ts"
import "../components/node-alert.ts"
import { liveChannel } from "../live/live-channel.ts"
import { wearChosenTheme, wearTheme } from "../theme/worn-theme.ts"
import type { NodeEventMap } from "./events.ts"
import { focusHeadingIn } from "./heading-focus.ts"
import "./demo-banner.ts"
import "./node-omnibar.ts"
import "./node-rail.ts"
import { PlaceLoader, type PlaceModule } from "./place-loader.ts"
import { type AppLocation, navigate, RouterController } from "./router.ts"
import { nodeAppStyles } from "./node-app-styles.ts"

type Access = "signed-in" | "signed-out" | "anyone"

interface Place {
  readonly title: string
  readonly access: Access
  /** The place's code: each `import()` is a chunk of its own in the build (ui/build.ts). */
  readonly module: PlaceModule
  readonly render: (being: Being | null, location: AppLocation) => TemplateResult
}

const places: Record<string, Place> = {
  "/": {
    title: "Desktop",
    access: "signed-in",
    module: () => import("../places/desktop/desktop-place.ts"),
    render: (being, location) =>
      html`<desktop-place .being=${being} .signalId=${location.query.get("signal") ?? ""}></desktop-place>`
  },
  "/studio": {
    title: "Studio",
    access: "signed-in",
    module: () => import("../places/studio/studio-place.ts"),
    render: (_, location) =>
      html`<studio-place .generator=${location.query.get("generator") ?? ""} .from=${location.query.get("from") ?? ""}></studio-place>`
  },
  "/work": {
    title: "Work",
    access: "signed-in",
    module: () => import("../places/queue/work-place.ts"),
    render: (being) => html`<work-place .being=${being}></work-place>`
  },
  "/spaces": {
    title: "Spaces",
    access: "signed-in",
    module: () => import("../places/spaces/spaces-place.ts"),
    render: () => html`<spaces-place></spaces-place>`
  },
  "/twin": {
    title: "Twin",
    access: "signed-in",
    module: () => import("../places/twin/twin-place.ts"),
    render: (_, location) => html`<twin-place .section=${location.query.get("section") ?? ""}></twin-place>`
  },
  "/muse": {
    title: "Muse",
    access: "signed-in",
    module: () => import("../places/muse/muse-place.ts"),
    render: (being, location) =>
      html`<muse-place .being=${being} .threadId=${location.query.get("thread") ?? ""}></muse-place>`
  },
  "/messages": {
    title: "Messages",
    access: "signed-in",
    module: () => import("../places/messages/messages-place.ts"),
    render: (being, location) =>
      html`<messages-place .being=${being} .threadId=${location.query.get("thread") ?? ""}></messages-place>`
  },
  "/beings": {
    title: "Beings",
    access: "signed-in",
    module: () => import("../places/beings/beings-place.ts"),
    render: (being) => html`<beings-place .being=${being}></beings-place>`
  },
  "/world": {
    title: "World",
    access: "signed-in",
    module: () => import("../places/world/world-place.ts"),
    render: (being) => html`<world-place .being=${being}></world-place>`
  },
  "/moderation": {
    title: "Moderation",
    access: "signed-in",
    module: () => import("../places/moderation/moderation-place.ts"),
    render: (being) => html`<moderation-place .being=${being}></moderation-place>`
  },
  "/settings": {
    title: "Settings",
    access: "signed-in",
    module: () => import("../places/settings/settings-place.ts"),
    render: (being, location) =>
      html`<settings-place .being=${being} .section=${location.query.get("section") ?? ""}></settings-place>`
  },
  "/admin": {
    title: "Admin",
    access: "signed-in",
    module: () => import("../places/admin/admin-place.ts"),
    render: () => html`<admin-place></admin-place>`
  },
  "/login": {
    title: "Log in",
    access: "signed-out",
    module: () => import("../places/login/login-place.ts"),
    render: () => html`<login-place></login-place>`
  },
  "/register": {
    title: "Register",
    access: "signed-out",
    module: () => import("../places/register/register-place.ts"),
    render: (_, location) => html`<register-place .code=${location.query.get("code") ?? ""}></register-place>`
  },
  "/waitlist": {
    title: "Waitlist",
    access: "signed-out",
    module: () => import("../places/waitlist/waitlist-place.ts"),
    render: () => html`<waitlist-place></waitlist-place>`
  },
  "/verify": {
    title: "Confirm email",
    access: "anyone",
    module: () => import("../places/verify/verify-place.ts"),
    render: (_, location) => html`<verify-place .token=${location.query.get("token") ?? ""}></verify-place>`
  },
  "/reset": {
    title: "Reset password",
    access: "anyone",
    module: () => import("../places/reset/reset-place.ts"),
    render: (_, location) => html`<reset-place .token=${location.query.get("token") ?? ""}></reset-place>`
  }
}

/** Where to go after logging in: a path of this app, never another origin. */
const safeNext = (next: string | null): string =>
  next?.startsWith("/") && !next.startsWith("//") && !next.startsWith("/\\") ? next : "/"

const notFound: Place = {
  title: "Not found",
  access: "anyone",
  module: () => import("../places/not-found/not-found-place.ts"),
  render: () => html`<not-found-place></not-found-place>`
}

/**
 * A place for one record, named by the path's last segment (empty when the pattern makes it optional). Its module is
 * made once: the loader knows a place's import by its identity.
 */
interface RecordPlace {
  readonly pattern: RegExp
  /** The document's title; without one, the record's id (a module's full name). */
  readonly title?: string
  readonly module: PlaceModule
  readonly render: (id: string, being: Being | null) => TemplateResult
}

const recordPlaces: ReadonlyArray<RecordPlace> = [
  {
    pattern: /^\/studio\/([^/]+)$/,
    title: "Project",
    module: () => import("../places/project/project-place.ts"),
    render: (projectId) => html`<project-place .projectId=${projectId}></project-place>`
  },
  {
    pattern: /^\/beings\/([^/]+)$/,
    title: "Being",
    module: () => import("../places/beings/being-place.ts"),
    render: (beingId, being) => html`<being-place .beingId=${beingId} .being=${being}></being-place>`
  },
  {
    // `/market`, or what follows it: a section (`mine`, `orders`, `wallet`) or a listing's id.
    pattern: /^\/market(?:\/([^/]+))?$/,
    title: "Market",
    module: () => import("../places/market/market-place.ts"),
    render: (route, being) => html`<market-place .route=${route} .being=${being}></market-place>`
  },
  {
    // `/m/<namespace>.<id>`: a plugin's module.
    pattern: /^\/m\/([a-z][a-z0-9_-]*\.[a-z][a-z0-9_-]*)$/,
    module: () => import("../places/module/module-place.ts"),
    render: (name) => html`<module-place .name=${name}></module-place>`
  }
]

/** The place a path names: a fixed one, one record's page (a project, a being, a module), or "Not found". */
const placeFor = (path: string): Place => {
  const fixed = places[path]
  if (fixed !== undefined) return fixed
  for (const record of recordPlaces) {
    const match = record.pattern.exec(path)
    if (match === null) continue
    let id = ""
    try {
      if (match[1] !== undefined) id = decodeURIComponent(match[1])
    } catch {
      return notFound
    }
    return {
      title: record.title ?? id,
      access: "signed-in",
      module: record.module,
      render: (being) => record.render(id, being)
    }
  }
  return notFound
}

@customElement("node-app")
export class NodeApp extends LitElement {
  private readonly _router = new RouterController(this)

  private readonly _places = new PlaceLoader(this)

  /** undefined until the node has said whether anyone is signed in. */
  @state() private accessor _being: Being | null | undefined = undefined

  @state() private accessor _notice = ""

  @state() private accessor _startError = ""

  /** Whether a place is on screen yet: the first load's redirects are no navigation of the person's. */
  private _placeShown = false

  /** A navigation whose place's heading has not had the keyboard yet. */
  private _headingWanted = false

  override connectedCallback(): void {
    super.connectedCallback()
    this.addEventListener("session-changed", this._onSessionChanged)
    this.addEventListener("place-heading", this._focusHeading)
    window.addEventListener("session-lost", this._onSessionLost)
    window.addEventListener("location-changed", this._onNavigation)
    window.addEventListener("popstate", this._onNavigation)
    void this._loadSession()
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.removeEventListener("session-changed", this._onSessionChanged)
    this.removeEventListener("place-heading", this._focusHeading)
    window.removeEventListener("session-lost", this._onSessionLost)
    window.removeEventListener("location-changed", this._onNavigation)
    window.removeEventListener("popstate", this._onNavigation)
  }

  protected override updated(): void {
    if (this._being !== undefined) this._placeShown = true
    // A place whose code was still loading at the navigation draws its heading on a later update.
    this._focusHeading()
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // The live channel runs while someone is signed in (one socket per tab, whatever the place).
    if (changed.has("_being" as keyof NodeApp)) {
      if (this._being === null || this._being === undefined) {
        liveChannel.stop()
        wearTheme(null)
      } else {
        liveChannel.start()
        // The being's chosen theme, kept by the node: every tab and device wears it.
        void wearChosenTheme()
      }
    }
    if (this._being === undefined) return
    const path = this._router.location.path
    const access = placeFor(path).access
    if (access === "signed-in" && this._being === null) {
      navigate(path === "/" ? "/login" : `/login?next=${encodeURIComponent(path)}`, { replace: true })
    } else if (access === "signed-out" && this._being !== null) {
      navigate("/", { replace: true })
    }
    document.title = `${placeFor(this._router.location.path).title} · Node`
  }

  protected override render() {
    if (this._being === undefined) {
      return html`<main class="starting">
        ${
          this._startError === ""
            ? html`<p class="muted" role="status">Loading…</p>`
            : html`<node-alert .message=${this._startError}></node-alert>
              <button type="button" @click=${this._loadSession}>Try again</button>`
        }
      </main>`
    }
    const location = this._router.location
    const place = placeFor(location.path)
    return html`
      <a class="skip" href="#main" @click=${this._skipToMain}>Skip to content</a>
      <div class="layout">
        <node-rail .being=${this._being} .path=${location.path}></node-rail>
        <div class="column">
          ${this._being === null ? nothing : html`<demo-banner ?owner=${this._being.isOwner}></demo-banner><header class="top"><node-omnibar .being=${this._being}></node-omnibar></header>`}
          <main id="main" tabindex="-1">
            <node-alert kind="info" .message=${this._notice}></node-alert>
            ${this._renderPlace(place, location)}
          </main>
        </div>
      </div>
    `
  }

  /** The place once its code is here; until then a loading line, or why it failed and a way to try again. */
  private _renderPlace(place: Place, location: AppLocation) {
    const load = this._places.load(place.module)
    if (load === "loaded") return place.render(this._being ?? null, location)
    if (load === "loading") return html`<p class="muted" role="status">Loading…</p>`
    return html`<node-alert .message=${"This page could not be loaded. Check the connection to the node and try again."}></node-alert>
      <button type="button" @click=${() => this._places.retry(place.module)}>Try again</button>`
  }

  private readonly _loadSession = async (): Promise<void> => {
    this._startError = ""
    // Answered alike signed in or not (being null), so a signed-out page logs no 401 (docs/decisions.md).
    const result = await request((client) => client.authPublic.session())
    if (result.ok) this._being = result.value.being
    else this._startError = result.failure.message
  }

  private readonly _onSessionChanged = (event: NodeEventMap["session-changed"]): void => {
    const signedIn = this._being !== null && this._being !== undefined
    this._being = event.detail.being
    this._notice = ""
    if (event.detail.being === null) navigate("/login")
    else if (!signedIn) navigate(safeNext(new URLSearchParams(window.location.search).get("next")))
  }

  private readonly _onSessionLost = (event: NodeEventMap["session-lost"]): void => {
    if (this._being === null || this._being === undefined) return
    this._being = null
    this._notice = `${event.detail.message} Log in again.`
    navigate("/login")
  }

  /**
   * After the shell has drawn the new place: a navigation by script updates it after this, one
   * by the history (popstate) may have updated it already, since the router heard it first.
   */
  private readonly _onNavigation = (): void => {
    if (!this._placeShown) return
    this._headingWanted = true
    void this.updateComplete.then(this._focusHeading)
  }

  /**
   * Gives the place's heading the keyboard, once it is drawn; a place that draws it later says so (`place-heading`).
   */
  private readonly _focusHeading = (): void => {
    if (!this._headingWanted) return
    const main = this.renderRoot.querySelector("main")
    if (main === null) return
    void focusHeadingIn(main).then((focused) => {
      if (focused) this._headingWanted = false
    })
  }

  private _skipToMain(event: Event): void {
    event.preventDefault()
    this.renderRoot.querySelector<HTMLElement>("main")?.focus()
  }

  static override styles = nodeAppStyles
}

declare global {
  interface HTMLElementTagNameMap {
    "node-app": NodeApp
  }
}

/**
 * The client-side router over the History API. `navigate` pushes a path and tells the app;
 * `RouterController` keeps its host element's `location` current and turns clicks on
 * same-origin links into navigations, so places are plain `<a href>` links (keyboard and
 * middle-click work as for any link). Links to /api and links marked `download` stay
 * ordinary browser navigations.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit"
import { fireEvent } from "./events.ts"

export interface AppLocation {
  readonly path: string
  readonly query: URLSearchParams
}

export const currentLocation = (): AppLocation => ({
  path: window.location.pathname,
  query: new URLSearchParams(window.location.search)
})

export const navigate = (to: string, options: { readonly replace?: boolean } = {}): void => {
  const url = new URL(to, window.location.href)
  const target = url.pathname + url.search + url.hash
  if (target === window.location.pathname + window.location.search + window.location.hash) return
  if (options.replace === true) window.history.replaceState(null, "", target)
  else window.history.pushState(null, "", target)
  fireEvent(window, "location-changed", { path: url.pathname })
}

const routableLink = (event: MouseEvent): HTMLAnchorElement | null => {
  if (event.defaultPrevented || event.button !== 0) return null
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null
  const anchor = event.composedPath().find((node): node is HTMLAnchorElement => node instanceof HTMLAnchorElement)
  if (anchor === undefined || anchor.href === "") return null
  if (anchor.hasAttribute("download") || (anchor.target !== "" && anchor.target !== "_self")) return null
  const url = new URL(anchor.href)
  if (url.origin !== window.location.origin) return null
  if (url.pathname === "/api" || url.pathname.startsWith("/api/")) return null
  return anchor
}

export class RouterController implements ReactiveController {
  location: AppLocation = currentLocation()

  private readonly _host: ReactiveControllerHost

  constructor(host: ReactiveControllerHost) {
    this._host = host
    host.addController(this)
  }

  hostConnected(): void {
    window.addEventListener("popstate", this._onChange)
    window.addEventListener("location-changed", this._onChange)
    window.addEventListener("click", this._onClick)
  }

  hostDisconnected(): void {
    window.removeEventListener("popstate", this._onChange)
    window.removeEventListener("location-changed", this._onChange)
    window.removeEventListener("click", this._onClick)
  }

  private readonly _onChange = (): void => {
    this.location = currentLocation()
    this._host.requestUpdate()
  }

  private readonly _onClick = (event: MouseEvent): void => {
    const anchor = routableLink(event)
    if (anchor === null) return
    event.preventDefault()
    navigate(anchor.href)
  }
}

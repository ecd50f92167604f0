/**
 * Finds a place's heading (its `h1`, inside the shadow roots of the elements that draw it) and
 * gives it the keyboard, as a single-page app must after a navigation: the browser does not
 * move focus by itself, so a keyboard or screen reader user would stay on the link they left.
 * The heading takes focus without joining the tab order (tabindex -1).
 */
import type { LitElement, ReactiveController, ReactiveControllerHost } from "lit"
import { fireEvent } from "./events.ts"

type Updating = Element & { readonly updateComplete?: Promise<unknown> }

/** The first `h1` under `root`, looking into shadow roots once each element there has drawn. */
const headingIn = async (root: ParentNode): Promise<HTMLElement | null> => {
  const heading = root.querySelector<HTMLElement>("h1")
  if (heading !== null) return heading
  for (const element of root.querySelectorAll<Updating>("*")) {
    if (element.shadowRoot === null) continue
    await element.updateComplete
    const found = await headingIn(element.shadowRoot)
    if (found !== null) return found
  }
  return null
}

/** Whether a heading was there to take the keyboard. */
export const focusHeadingIn = async (root: ParentNode): Promise<boolean> => {
  const heading = await headingIn(root)
  if (heading === null) return false
  if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1
  heading.focus()
  return true
}

/**
 * For a place that draws its heading only once its data is there: tells the shell each time a
 * new heading appears (`place-heading`), so a navigation that found none yet can focus it then.
 */
export class LateHeading implements ReactiveController {
  private readonly _host: ReactiveControllerHost & LitElement

  private _heading: Element | null = null

  constructor(host: ReactiveControllerHost & LitElement) {
    this._host = host
    host.addController(this)
  }

  hostUpdated(): void {
    const heading = this._host.renderRoot.querySelector("h1")
    if (heading !== null && heading !== this._heading) fireEvent(this._host, "place-heading", {})
    this._heading = heading
  }
}

/**
 * Icons as inline SVG from the Material Design Icons set (`@mdi/js`, as Home Assistant draws
 * them): each icon is a path string imported by name, so the bundle carries only the icons the
 * app uses, and nothing depends on the fonts a machine has installed (an emoji font is often
 * missing, and an emoji then shows as an empty box). Icons are decoration: hidden from screen
 * readers, the words beside them carry the meaning.
 */
import { html } from "lit"

export const icon = (path: string) =>
  html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d=${path}></path></svg>`

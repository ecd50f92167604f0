/**
 * The twin, at `/twin`: what the node remembers of the person and how it keeps their time. One
 * section at a time, chosen by `?section=` (so a link can open one: the desktop's held count
 * opens `hush`), each a file of its own. The sections are links, not script-driven tabs: the
 * address says where one is, and back and forward move between sections.
 */
import { css, html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import { sectionTabsStyles } from "../../styles/section-tabs-styles.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./twin-activity.ts"
import "./twin-agenda.ts"
import "./twin-hush.ts"
import "./twin-learning.ts"
import "./twin-memories.ts"
import "./twin-missed.ts"
import "./twin-profile.ts"
import "./twin-status.ts"
import "./twin-todos.ts"

const sections = [
  ["memories", "Memories"],
  ["profile", "Profile"],
  ["activity", "Activity"],
  ["todos", "To-dos"],
  ["agenda", "Agenda"],
  ["hush", "Hush"]
] as const

type Section = (typeof sections)[number][0]

const isSection = (name: string): name is Section => sections.some(([id]) => id === name)

@customElement("twin-place")
export class TwinPlace extends LitElement {
  /** The `section` query parameter; anything else opens the memories. */
  @property() accessor section = ""

  protected override render() {
    const current: Section = isSection(this.section) ? this.section : "memories"
    return html`
      <h1 tabindex="-1">Twin</h1>
      <p class="muted">What your node remembers about you, what it did for you, your to-dos and agenda, and when it may nudge you.</p>
      <nav class="sections" aria-label="Twin sections">
        <ul>
          ${sections.map(
            ([id, label]) => html`<li>
              <a href=${id === "memories" ? "/twin" : `/twin?section=${id}`} aria-current=${id === current ? "page" : "false"}>${label}</a>
            </li>`
          )}
        </ul>
      </nav>
      ${this._renderSection(current)}
    `
  }

  private _renderSection(section: Section) {
    switch (section) {
      case "memories":
        return html`<twin-memories></twin-memories>`
      case "profile":
        return html`<twin-profile></twin-profile>`
      case "activity":
        return html`<div class="split"><twin-activity></twin-activity><div class="stack"><twin-learning></twin-learning><twin-status></twin-status></div></div>`
      case "todos":
        return html`<twin-todos></twin-todos>`
      case "agenda":
        return html`<twin-agenda></twin-agenda>`
      case "hush":
        return html`<div class="split even" @hush-changed=${this._onHushChanged}><twin-hush></twin-hush><twin-missed></twin-missed></div>`
    }
  }

  private readonly _onHushChanged = (): void => {
    this.renderRoot.querySelector("twin-missed")?.reload()
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    sectionTabsStyles,
    css`
      /* The status and the learning switches share the split's narrow column. */
      .stack {
        display: grid;
        min-width: 0;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-place": TwinPlace
  }
}

/**
 * The omnibar: one input in the shell's top bar, on every place. A sentence that asks for
 * something to be made (the contract's one rule, make-request.ts) offers to start a project,
 * through POST /api/studio/omnibar, and opens it; anything else finds places by name (the rail's
 * own list) and, from GET /api/search, the person's projects and memories and the market's
 * listings. A combobox: arrow keys move through the results, Enter opens one (the first when
 * none is chosen), Escape closes them; "/" (outside a field) or Ctrl/Cmd+K gives it the keyboard.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, property, query, state } from "lit/decorators.js"
import { mdiMagnify } from "@mdi/js"
import type { Being } from "../../extensions/accounts/contract/records.ts"
import type { SearchResults } from "../../extensions/search/contract/api.ts"
import { isMakeRequest } from "../../actors/project/contract/make-request.ts"
import { request } from "../api/client.ts"
import { icon } from "../components/icon.ts"
import { sharedStyles } from "../styles/shared-styles.ts"
import { signedInItems } from "./node-rail.ts"
import { navigate } from "./router.ts"

interface Option {
  readonly label: string
  /** Where choosing it goes; null: it starts a project. */
  readonly path: string | null
}

interface Group {
  readonly name: string
  readonly options: ReadonlyArray<Option>
}

/** How long typing pauses before the node is asked: one search per pause, not per key. */
const searchDelayMs = 150

const MAX_QUERY = 200

const isTypingTarget = (event: KeyboardEvent): boolean => {
  const target = event.composedPath()[0]
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)
}

const resultGroups = (found: SearchResults): ReadonlyArray<Group> => [
  {
    name: "Projects",
    options: found.projects.map((project) => ({
      label: project.title,
      path: `/studio/${encodeURIComponent(project.id)}`
    }))
  },
  {
    name: "Memories",
    options: found.memories.map((memory) => ({ label: memory.content, path: "/twin?section=memories" }))
  },
  {
    name: "Listings",
    options: found.listings.map((listing) => ({
      label: listing.title,
      path: `/market/${encodeURIComponent(listing.id)}`
    }))
  }
]

@customElement("node-omnibar")
export class NodeOmnibar extends LitElement {
  @property({ attribute: false }) accessor being: Being | null = null

  @state() private accessor _text = ""

  @state() private accessor _groups: ReadonlyArray<Group> = []

  @state() private accessor _active = -1

  @state() private accessor _open = false

  @state() private accessor _status = ""

  @query("input") private accessor _input!: HTMLInputElement

  /** The newest search asked: an older answer arriving late is dropped. */
  private _asked = 0

  private _timer: ReturnType<typeof setTimeout> | undefined

  override connectedCallback(): void {
    super.connectedCallback()
    window.addEventListener("keydown", this._onShortcut)
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    window.removeEventListener("keydown", this._onShortcut)
    clearTimeout(this._timer)
  }

  private get _options(): ReadonlyArray<Option> {
    return this._groups.flatMap((group) => group.options)
  }

  protected override render() {
    const options = this._options
    const expanded = this._open && this._groups.length > 0
    let index = 0
    return html`
      <form @submit=${this._onSubmit}>
        <span class="glass" aria-hidden="true">${icon(mdiMagnify)}</span>
        <input
          type="text"
          role="combobox"
          aria-label="Search or make"
          aria-autocomplete="list"
          aria-controls="omnibar-results"
          aria-expanded=${expanded ? "true" : "false"}
          aria-activedescendant=${expanded && this._active >= 0 ? `omnibar-option-${this._active}` : nothing}
          aria-keyshortcuts="/ Control+K Meta+K"
          placeholder="Search, or “write a…” to start a project"
          maxlength=${MAX_QUERY}
          autocomplete="off"
          .value=${this._text}
          @input=${this._onInput}
          @keydown=${this._onKeydown}
          @focus=${() => {
            this._open = true
          }}
          @blur=${() => {
            this._open = false
          }}
        />
        <kbd class="hint" aria-hidden="true">/</kbd>
      </form>
      <p class="status" role="status">${this._status}</p>
      ${
        expanded
          ? html`<div id="omnibar-results" role="listbox" aria-label="Results">
            ${this._groups.map((group) =>
              group.options.length === 0
                ? nothing
                : html`<div role="group" aria-label=${group.name}>
                  <div class="group-name" aria-hidden="true">${group.name}</div>
                  ${group.options.map((option) => {
                    const at = index++
                    return html`<div
                      id=${`omnibar-option-${at}`}
                      role="option"
                      aria-selected=${at === this._active ? "true" : "false"}
                      @mousedown=${(event: Event) => event.preventDefault()}
                      @click=${() => this._choose(options[at]!)}
                    >${option.label}</div>`
                  })}
                </div>`
            )}
          </div>`
          : nothing
      }
    `
  }

  private readonly _onShortcut = (event: KeyboardEvent): void => {
    const chord = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k"
    const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !isTypingTarget(event)
    if (!chord && !slash) return
    event.preventDefault()
    this._input.focus()
    this._input.select()
  }

  private _onInput(event: Event): void {
    this._text = (event.target as HTMLInputElement).value
    this._open = true
    this._active = -1
    clearTimeout(this._timer)
    const text = this._text.trim()
    const asked = ++this._asked
    if (text === "") {
      this._groups = []
      return
    }
    if (isMakeRequest(text)) {
      this._groups = [{ name: "Start", options: [{ label: `Start a project: ${text}`, path: null }] }]
      return
    }
    const places = this._places(text)
    this._groups = [{ name: "Places", options: places }]
    this._timer = setTimeout(() => void this._search(text, asked, places), searchDelayMs)
  }

  private _places(text: string): ReadonlyArray<Option> {
    if (this.being === null) return []
    const wanted = text.toLowerCase()
    return signedInItems(this.being)
      .filter((item) => item.label.toLowerCase().includes(wanted))
      .map((item) => ({ label: item.label, path: item.path }))
  }

  private async _search(text: string, asked: number, places: ReadonlyArray<Option>): Promise<void> {
    const result = await request((client) => client.search.search({ urlParams: { q: text } }))
    if (asked !== this._asked) return
    if (!result.ok) {
      this._status = result.failure.message
      return
    }
    this._status = ""
    this._groups = [{ name: "Places", options: places }, ...resultGroups(result.value)]
  }

  private _onKeydown(event: KeyboardEvent): void {
    const count = this._options.length
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault()
      if (count === 0) return
      this._open = true
      const step = event.key === "ArrowDown" ? 1 : -1
      this._active = (this._active + step + count) % count
    } else if (event.key === "Escape") {
      this._open = false
      this._active = -1
    }
  }

  private _onSubmit(event: Event): void {
    event.preventDefault()
    const text = this._text.trim()
    if (text === "") return
    const chosen = this._options[this._active] ?? this._options[0]
    if (chosen !== undefined) this._choose(chosen)
    else if (isMakeRequest(text)) void this._start(text)
  }

  private _choose(option: Option): void {
    if (option.path === null) {
      void this._start(this._text.trim())
      return
    }
    this._reset()
    navigate(option.path)
  }

  /** Starts the project through the omnibar's route (the same rule and path as the node's own). */
  private async _start(text: string): Promise<void> {
    this._status = "Starting the project…"
    const result = await request((client) => client.studioProjects.omnibar({ payload: { text } }))
    if (!result.ok) {
      this._status = result.failure.message
      return
    }
    this._reset()
    this._status = ""
    navigate(`/studio/${encodeURIComponent(result.value.id)}`)
  }

  private _reset(): void {
    ++this._asked
    clearTimeout(this._timer)
    this._text = ""
    this._groups = []
    this._active = -1
    this._open = false
    this._input.blur()
  }

  static override styles = [
    sharedStyles,
    css`
      :host {
        display: block;
        position: relative;
        max-width: 40rem;
      }
      /* The input wears the app's own field look and focus ring; the glass and the "/" hint sit inside it. */
      form {
        display: block;
        position: relative;
        max-width: none;
      }
      input {
        box-sizing: border-box;
        width: 100%;
        max-width: none;
        min-height: 44px;
        padding-left: 2.5rem;
        padding-right: 2.5rem;
      }
      .glass,
      .hint {
        position: absolute;
        top: 50%;
        transform: translateY(-50%);
        color: var(--node-muted);
        pointer-events: none;
      }
      .glass {
        left: var(--node-space-3);
        display: flex;
      }
      .hint {
        right: var(--node-space-3);
        font-family: inherit;
        font-size: var(--node-font-size-sm);
        border: 1px solid var(--node-border);
        border-radius: 4px;
        padding: 0 6px;
      }
      .status:empty {
        display: none;
      }
      .status {
        margin: var(--node-space-1) 0 0;
        font-size: var(--node-font-size-sm);
      }
      [role="listbox"] {
        position: absolute;
        z-index: 10;
        left: 0;
        right: 0;
        margin-top: var(--node-space-1);
        max-height: min(28rem, 70vh);
        overflow-y: auto;
        padding: var(--node-space-2);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-sm);
        background: var(--node-surface);
        color: var(--node-text);
        box-shadow: 0 8px 24px rgb(0 0 0 / 0.18);
      }
      .group-name {
        padding: var(--node-space-1) var(--node-space-2);
        font-size: var(--node-font-size-xs);
        color: var(--node-muted);
        text-transform: uppercase;
      }
      [role="option"] {
        padding: var(--node-space-2);
        min-height: 44px;
        box-sizing: border-box;
        border-radius: var(--node-radius-sm);
        cursor: pointer;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      /* A phone has no "/" key at hand: no hint. */
      @media (max-width: 700px) {
        .hint {
          display: none;
        }
        input {
          padding-right: var(--node-space-3);
        }
      }
      [role="option"][aria-selected="true"],
      [role="option"]:hover {
        background: var(--node-accent-soft);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "node-omnibar": NodeOmnibar
  }
}

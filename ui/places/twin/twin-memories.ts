/**
 * The twin's memories: search as you type (by words and by meaning, the node fuses both), a
 * kind filter, each memory's kind, importance, source and date, a short form to write one by
 * hand, and delete after a confirmation. When the node ranked by words alone (its
 * `x-memory-search` header says `words`) the section says so, with how much of the memory is
 * embedded (the status' coverage).
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, query, state } from "lit/decorators.js"
import * as Effect from "effect/Effect"
import {
  type Memory,
  memorySearchHeader,
  type MemorySearchMode,
  type MemoryKind
} from "../../../extensions/twin/contract/records.ts"
import { memoryKinds } from "../../../kernel/contract/memory.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/confirm-dialog.ts"
import type { ConfirmDialog } from "../../components/confirm-dialog.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import { recordListStyles } from "../../styles/record-list-styles.ts"
import { formatDate } from "./twin-time.ts"
import "./twin-coverage.ts"

/** Long enough to let a word be typed, short enough to feel like it follows the typing. */
const SEARCH_DELAY_MS = 250

interface Found {
  readonly memories: ReadonlyArray<Memory>
  readonly mode: MemorySearchMode
}

@customElement("twin-memories")
export class TwinMemories extends LitElement {
  @state() private accessor _query = ""

  @state() private accessor _kind: MemoryKind | "" = ""

  private readonly _found = new ApiResource(this, (client) =>
    client.twin
      .searchMemories({
        urlParams: {
          ...(this._query.trim() === "" ? {} : { q: this._query.trim() }),
          ...(this._kind === "" ? {} : { kind: this._kind }),
          limit: 50,
          offset: 0
        },
        withResponse: true
      })
      .pipe(
        Effect.map(
          ([memories, response]): Found => ({
            memories,
            mode: response.headers[memorySearchHeader] === "words" ? "words" : "hybrid"
          })
        )
      )
  )

  /** The coverage, asked for once a search ranked by words alone. */
  private readonly _status = new ApiResource(this, (client) => client.twin.status(), { loadOnConnect: false })

  private readonly _changing = new ApiAction(this)

  private _timer: ReturnType<typeof setTimeout> | undefined

  @query("confirm-dialog") private accessor _confirm!: ConfirmDialog

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    clearTimeout(this._timer)
  }

  /** The answer the coverage was last asked for. */
  private _coverageFor: Found | null = null

  /** Each answer ranked by words alone asks for the coverage again: memories may have been added or embedded since. */
  protected override willUpdate(): void {
    const found = this._found.value
    if (found === null || found === this._coverageFor || found.mode !== "words") return
    this._coverageFor = found
    void this._status.reload()
  }

  protected override render() {
    const found = this._found.value
    return html`
      <section class="card" aria-labelledby="memories-title">
        <h2 id="memories-title">Memories</h2>
        <div class="filters" role="search">
          <label class="grow"
            >Search memories
            <input type="search" .value=${this._query} @input=${this._onQuery} placeholder="Words or what it was about" autocomplete="off" />
          </label>
          <label
            >Kind
            <select @change=${this._onKind}>
              <option value="" ?selected=${this._kind === ""}>All kinds</option>
              ${memoryKinds.map((kind) => html`<option value=${kind} ?selected=${this._kind === kind}>${kind}</option>`)}
            </select>
          </label>
        </div>
        ${
          found !== null && found.mode === "words" && this._query.trim() !== ""
            ? html`<twin-coverage class="words-only" .embeddings=${this._status.value?.embeddings ?? null} lead="Searched by words only: memories that mean the same in other words are not found."></twin-coverage>`
            : nothing
        }
        <node-alert .message=${this._changing.error || this._found.error}></node-alert>
        <node-alert kind="success" .message=${this._changing.notice}></node-alert>
        <p class="sr-only" role="status">${found === null || this._found.loading ? "" : this._countWords(found)}</p>
        ${this._found.render("Loading memories…", (value) => this._renderList(value.memories))}
        <confirm-dialog></confirm-dialog>
      </section>
      <section class="card" aria-labelledby="remember-title">
        <h2 id="remember-title">Remember something</h2>
        <form @submit=${this._remember}>
          <label>What to remember <textarea name="content" required maxlength="4000" rows="2"></textarea></label>
          <label
            >Kind
            <select name="kind">
              ${memoryKinds.map((kind) => html`<option value=${kind}>${kind}</option>`)}
            </select>
          </label>
          <div class="actions"><button type="submit" ?disabled=${this._changing.busy}>Remember</button></div>
        </form>
      </section>
    `
  }

  private _countWords(found: Found): string {
    const count = found.memories.length
    return `${count === 0 ? "No" : count} ${count === 1 ? "memory" : "memories"} ${this._query.trim() === "" ? "listed" : "found"}.`
  }

  private _renderList(memories: ReadonlyArray<Memory>) {
    if (memories.length === 0) {
      return html`<p class="muted">${this._query.trim() === "" && this._kind === "" ? "Your twin remembers nothing yet." : "No memory matches."}</p>`
    }
    return html`<ul class="records memories">
      ${memories.map(
        (memory) => html`<li class="memory" data-memory-id=${memory.id}>
          <p class="content">${memory.content}</p>
          <p class="meta muted">
            <span class="badge">${memory.kind}</span>
            <span>Importance ${Math.round(memory.importance * 100)}%</span>
            <span>From ${memory.source}</span>
            <span>${formatDate(memory.createdAt)}</span>
          </p>
          <button class="danger" type="button" aria-label=${`Delete the memory “${clip(memory.content)}”`} @click=${() => this._delete(memory)}>
            Delete
          </button>
        </li>`
      )}
    </ul>`
  }

  private readonly _onQuery = (event: Event): void => {
    this._query = (event.target as HTMLInputElement).value
    clearTimeout(this._timer)
    this._timer = setTimeout(() => void this._found.reload(), SEARCH_DELAY_MS)
  }

  private readonly _onKind = (event: Event): void => {
    this._kind = (event.target as HTMLSelectElement).value as MemoryKind | ""
    void this._found.reload()
  }

  private async _delete(memory: Memory): Promise<void> {
    const sure = await this._confirm.ask({
      title: "Delete this memory?",
      message: `“${clip(memory.content)}” is removed for good, with what the twin knew of its meaning.`,
      confirm: "Delete the memory"
    })
    if (!sure) return
    await this._changing.run(
      (client) => client.twin.deleteMemory({ path: { id: memory.id } }),
      () => "The memory is deleted."
    )
    await this._found.reload()
  }

  private readonly _remember = onSubmit(async ({ field, clear }) => {
    const stored = await this._changing.run(
      (client) =>
        client.twin.createMemory({ payload: { content: field("content"), kind: field("kind") as MemoryKind } }),
      () => "Remembered."
    )
    if (!stored) return
    clear()
    await this._found.reload()
  })

  static override styles = [
    sharedStyles,
    recordListStyles,
    css`
      .filters {
        display: flex;
        flex-wrap: wrap;
        gap: var(--node-space-3);
        align-items: flex-end;
        margin: 0 0 var(--node-space-4);
      }
      .filters label {
        flex: 1 1 10rem;
      }
      .filters label.grow {
        flex: 3 1 16rem;
      }
      .memory {
        display: grid;
        grid-template-columns: minmax(0, 1fr) auto;
        gap: var(--node-space-1) var(--node-space-3);
        align-items: start;
      }
      .content {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .meta {
        grid-column: 1;
      }
      .memory button {
        grid-column: 2;
        grid-row: 1 / span 2;
      }
      .words-only {
        margin: 0 0 var(--node-space-4);
      }
    `
  ]
}

const clip = (text: string): string => (text.length > 60 ? `${text.slice(0, 59)}…` : text)

declare global {
  interface HTMLElementTagNameMap {
    "twin-memories": TwinMemories
  }
}

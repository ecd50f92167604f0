/**
 * To-dos: a quick add (a title and, if it has one, when it is due), the list filtered by status
 * (open and deferred by default, soonest due first as the node sorts them), and on each to-do
 * complete, defer (24 hours on; the count of deferrals shows) and drop.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import type { Todo, TodoStatus } from "../../../extensions/time/contract/todos.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { containerStyles, inlineFormStyles, sharedStyles } from "../../styles/shared-styles.ts"
import { recordListStyles } from "../../styles/record-list-styles.ts"
import { instantOf } from "./twin-time.ts"

const filters: ReadonlyArray<readonly [string, string, ReadonlyArray<TodoStatus>]> = [
  ["active", "Open and deferred", ["open", "deferred"]],
  ["open", "Open", ["open"]],
  ["deferred", "Deferred", ["deferred"]],
  ["done", "Done", ["done"]],
  ["dropped", "Dropped", ["dropped"]],
  ["all", "All", ["open", "deferred", "done", "dropped"]]
]

const statusWords: Record<TodoStatus, string> = { open: "Open", deferred: "Deferred", done: "Done", dropped: "Dropped" }

const statusTone: Record<TodoStatus, string> = { open: "active", deferred: "", done: "good", dropped: "bad" }

@customElement("twin-todos")
export class TwinTodos extends LitElement {
  @state() private accessor _filter = "active"

  private readonly _todos = new ApiResource(this, (client) =>
    client.twinTime.listTodos({
      urlParams: {
        status: filters.find(([id]) => id === this._filter)?.[2] ?? ["open", "deferred"],
        limit: 200,
        offset: 0
      }
    })
  )

  private readonly _changing = new ApiAction(this)

  protected override render() {
    return html`<section class="card" aria-labelledby="todos-title">
      <h2 id="todos-title">To-dos</h2>
      <form class="inline" @submit=${this._add} aria-label="Add a to-do">
        <label>New to-do <input name="title" required maxlength="200" placeholder="Call the plumber" autocomplete="off" /></label>
        <label>Due (optional) <input name="dueAt" type="datetime-local" /></label>
        <div class="actions"><button type="submit" ?disabled=${this._changing.busy}>Add</button></div>
      </form>
      <node-alert .message=${this._changing.error || this._todos.error}></node-alert>
      <node-alert kind="success" .message=${this._changing.notice}></node-alert>
      <label class="filter"
        >Show
        <select @change=${this._onFilter}>
          ${filters.map(([id, label]) => html`<option value=${id} ?selected=${id === this._filter}>${label}</option>`)}
        </select>
      </label>
      ${this._todos.render("Loading to-dos…", (todos) => this._renderList(todos))}
    </section>`
  }

  private _renderList(todos: ReadonlyArray<Todo>) {
    if (todos.length === 0) return html`<p class="muted">No to-dos here.</p>`
    return html`<ul class="records">
      ${todos.map((todo) => {
        const busy = this._changing.busy
        return html`<li class="todo" data-todo-id=${todo.id}>
          <div class="what">
            <p class="title">${todo.title}</p>
            <p class="meta muted">
              <span class="badge" data-tone=${statusTone[todo.status]}>${statusWords[todo.status]}</span>
              ${todo.dueAt === null ? html`<span>No due date</span>` : html`<span>Due ${formatDateTime(todo.dueAt)}</span>`}
              ${todo.deferredCount === 0 ? nothing : html`<span>Deferred ${todo.deferredCount === 1 ? "once" : `${todo.deferredCount} times`}</span>`}
              ${todo.completedAt === null ? nothing : html`<span>Done ${formatDateTime(todo.completedAt)}</span>`}
            </p>
          </div>
          <div class="actions" role="group" aria-label=${`Change “${todo.title}”`}>
            ${
              todo.status === "done"
                ? nothing
                : html`<button type="button" ?disabled=${busy} aria-label=${`Complete “${todo.title}”`} @click=${() => this._move(todo, "complete")}>Complete</button>`
            }
            ${
              todo.status === "dropped"
                ? nothing
                : html`<button class="secondary" type="button" ?disabled=${busy} aria-label=${`Defer “${todo.title}” by a day`} @click=${() => this._move(todo, "defer")}>Defer</button>
                  <button class="secondary" type="button" ?disabled=${busy} aria-label=${`Drop “${todo.title}”`} @click=${() => this._move(todo, "drop")}>Drop</button>`
            }
          </div>
        </li>`
      })}
    </ul>`
  }

  private readonly _onFilter = (event: Event): void => {
    this._filter = (event.target as HTMLSelectElement).value
    void this._todos.reload()
  }

  private readonly _add = onSubmit(async ({ field, clear }) => {
    const dueAt = instantOf(field("dueAt"))
    const added = await this._changing.run(
      (client) =>
        client.twinTime.createTodo({ payload: { title: field("title"), ...(dueAt === null ? {} : { dueAt }) } }),
      (todo) => `Added “${todo.title}”.`
    )
    if (!added) return
    clear()
    await this._todos.reload()
  })

  private async _move(todo: Todo, move: "complete" | "defer" | "drop"): Promise<void> {
    const path = { path: { id: todo.id } }
    const done = await this._changing.run(
      (client) =>
        move === "complete"
          ? client.twinTime.completeTodo(path)
          : move === "defer"
            ? client.twinTime.deferTodo({ ...path, payload: {} })
            : client.twinTime.dropTodo(path),
      (moved) =>
        move === "complete"
          ? `“${moved.title}” is done.`
          : move === "defer"
            ? `“${moved.title}” is deferred to ${moved.dueAt === null ? "later" : formatDateTime(moved.dueAt)}.`
            : `“${moved.title}” is dropped.`
    )
    if (done) await this._todos.reload()
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    inlineFormStyles,
    recordListStyles,
    css`
      form.inline {
        margin: 0 0 var(--node-space-5);
      }
      .filter {
        max-width: 16rem;
        margin: 0 0 var(--node-space-3);
      }
      .todo {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        justify-content: space-between;
        gap: var(--node-space-2) var(--node-space-4);
      }
      .what {
        flex: 1 1 16rem;
        min-width: 0;
      }
      .title {
        margin: 0 0 var(--node-space-1);
        overflow-wrap: anywhere;
      }
      .todo .actions {
        margin: 0;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "twin-todos": TwinTodos
  }
}

/**
 * Spaces, at `/spaces`: the person's groups as a tree (the owner sees every group), a form to
 * make one (inside another they lead, or at the top), and the chosen group's panel
 * (spaces-group.ts): its members with their roles, moving it, and binding it as a project's crew.
 * A group whose parent the person is not in stands at the top of their tree: containment grants
 * nothing, so they see no more of the tree than their own memberships.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement, state } from "lit/decorators.js"
import { knownGroupKinds, leadRole, type GroupSummary } from "../../../extensions/groups/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"
import "./spaces-group.ts"

/** Each group's children, and the groups that stand at the top of this person's tree. */
const treeOf = (groups: ReadonlyArray<GroupSummary>) => {
  const known = new Set(groups.map((group) => group.id))
  const children = new Map<string, Array<GroupSummary>>()
  const top: Array<GroupSummary> = []
  for (const group of groups) {
    if (group.parentId === null || !known.has(group.parentId)) top.push(group)
    else children.set(group.parentId, [...(children.get(group.parentId) ?? []), group])
  }
  return { top, children }
}

@customElement("spaces-place")
export class SpacesPlace extends LitElement {
  private readonly _groups = new ApiResource(this, (client) => client.groups.listGroups())

  private readonly _creating = new ApiAction(this)

  @state() private accessor _selected = ""

  protected override render() {
    return html`
      <h1>Spaces</h1>
      <p class="muted">Your groups: households, companies, crews. A crew bound to a project gives its steps to the people in its seats.</p>
      <div class="columns">
        <section class="card" aria-labelledby="groups-title">
          <h2 id="groups-title">Your groups</h2>
          <node-alert .message=${this._groups.error}></node-alert>
          ${this._groups.render("Loading groups…", (groups) => this._renderTree(groups))}
          ${this._groups.value === null ? nothing : this._renderCreate(this._groups.value)}
        </section>
        ${
          this._selected === ""
            ? nothing
            : html`<spaces-group
              .groupId=${this._selected}
              .groups=${this._groups.value ?? []}
              @group-changed=${() => this._groups.reload()}
            ></spaces-group>`
        }
      </div>
    `
  }

  private _renderTree(groups: ReadonlyArray<GroupSummary>) {
    if (groups.length === 0) return html`<p class="muted">You are in no group yet. Make one below.</p>`
    const { children, top } = treeOf(groups)
    const branch = (level: ReadonlyArray<GroupSummary>): unknown => html`<ul class="tree">
      ${level.map(
        (group) => html`<li data-group-id=${group.id}>
          <button
            type="button"
            class="link"
            aria-pressed=${this._selected === group.id ? "true" : "false"}
            @click=${() => (this._selected = group.id)}
          >
            ${group.name}
          </button>
          <span class="muted">${group.kind}${group.myRole === null ? "" : ` · ${group.myRole}`}</span>
          ${children.has(group.id) ? branch(children.get(group.id)!) : nothing}
        </li>`
      )}
    </ul>`
    return branch(top)
  }

  private _renderCreate(groups: ReadonlyArray<GroupSummary>) {
    const busy = this._creating.busy
    const leads = groups.filter((group) => group.myRole === leadRole || group.myRole === null)
    return html`<form class="create" @submit=${this._create} aria-label="Make a group">
      <h3>Make a group</h3>
      <label>Name <input name="name" required maxlength="80" /></label>
      <label
        >Kind
        <input name="kind" list="group-kinds" required maxlength="40" value="crew" />
        <datalist id="group-kinds">${knownGroupKinds.map((kind) => html`<option value=${kind}></option>`)}</datalist>
      </label>
      <label
        >Inside
        <select name="parentId">
          <option value="">Nothing (a top-level group)</option>
          ${leads.map((group) => html`<option value=${group.id}>${group.name}</option>`)}
        </select>
      </label>
      <node-alert .message=${this._creating.error}></node-alert>
      <div class="actions"><button type="submit" ?disabled=${busy}>${busy ? "Making…" : "Make the group"}</button></div>
    </form>`
  }

  private readonly _create = onSubmit(async ({ field, clear }) => {
    const parentId = field("parentId")
    let made = ""
    const ok = await this._creating.run(
      (client) =>
        client.groups.createGroup({
          payload: {
            name: field("name").trim(),
            kind: field("kind").trim().toLowerCase(),
            ...(parentId === "" ? {} : { parentId })
          }
        }),
      (group) => {
        made = group.id
      }
    )
    if (!ok) return
    clear()
    this._selected = made
    this._groups.reload()
  })

  static override styles = [
    sharedStyles,
    css`
      .columns {
        display: grid;
        gap: var(--node-space-4, 16px);
        grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr);
        align-items: start;
      }
      @media (max-width: 900px) {
        .columns {
          grid-template-columns: minmax(0, 1fr);
        }
      }
      .tree {
        list-style: none;
        margin: 0;
        padding-left: 0;
      }
      .tree .tree {
        padding-left: 1.25rem;
        border-left: 1px solid var(--node-border, #ccc);
      }
      .tree li {
        padding: 2px 0;
      }
      button.link {
        background: none;
        border: none;
        padding: 0;
        color: var(--node-accent, inherit);
        text-decoration: underline;
        cursor: pointer;
        font: inherit;
      }
      button.link[aria-pressed="true"] {
        font-weight: 600;
        text-decoration: none;
      }
      .create {
        margin-top: var(--node-space-4, 16px);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "spaces-place": SpacesPlace
  }
}

/**
 * One group in /spaces: its members with their roles (add a being or change their role, remove
 * one), moving it inside another group or to the top, and binding it as a project's crew. What the
 * node refuses (only a lead changes a group; a lead of both ends moves it) is said in its words.
 */
import { css, html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { GroupDetail, GroupSummary } from "../../../extensions/groups/contract/records.ts"
import { PAGE_MAX } from "../../../kernel/contract/page.ts"
import { ApiAction } from "../../components/api-action.ts"
import { ApiResource } from "../../components/api-resource.ts"
import "../../components/node-alert.ts"
import { onSubmit } from "../../components/on-submit.ts"
import { fireEvent } from "../../shell/events.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("spaces-group")
export class SpacesGroup extends LitElement {
  @property() accessor groupId = ""

  /** The person's groups, for where this one may move. */
  @property({ attribute: false }) accessor groups: ReadonlyArray<GroupSummary> = []

  private readonly _detail = new ApiResource(this, (client) => client.groups.getGroup({ path: { id: this.groupId } }))

  private readonly _beings = new ApiResource(this, (client) => client.beings.listBeings())

  /** The person's newest projects: a crew is bound to a project about to run, not to one of last year's. */
  private readonly _projects = new ApiResource(this, (client) =>
    client.studioProjects.listProjects({ urlParams: { limit: PAGE_MAX, offset: 0 } })
  )

  private readonly _action = new ApiAction(this)

  protected override updated(changed: Map<string, unknown>): void {
    if (changed.has("groupId") && changed.get("groupId") !== undefined) this._detail.reload()
  }

  protected override render() {
    return html`<section class="card" aria-labelledby="group-title">
      <node-alert .message=${this._detail.error}></node-alert>
      ${this._detail.render("Loading the group…", (detail) => this._renderGroup(detail))}
    </section>`
  }

  private _renderGroup({ group, members }: GroupDetail) {
    const busy = this._action.busy
    const elsewhere = this.groups.filter((other) => other.id !== group.id)
    return html`
      <h2 id="group-title">${group.name} <span class="muted">(${group.kind})</span></h2>
      <node-alert .message=${this._action.error}></node-alert>
      <node-alert kind="success" .message=${this._action.notice}></node-alert>
      <h3>Members</h3>
      <ul class="members">
        ${members.map(
          (member) => html`<li data-being-id=${member.beingId}>
            <span>${member.displayName} <span class="muted">@${member.handle}</span></span>
            <span class="role">${member.role}</span>
            <button type="button" ?disabled=${busy} @click=${() => this._remove(member.beingId, member.displayName)}>Remove</button>
          </li>`
        )}
      </ul>
      <form @submit=${this._add} aria-label="Add a member">
        <label
          >Being
          <select name="beingId" required>
            ${(this._beings.value ?? []).map((being) => html`<option value=${being.id}>${being.displayName} (@${being.handle})</option>`)}
          </select>
        </label>
        <label>Role <input name="role" required maxlength="40" placeholder="writer, lead, member…" /></label>
        <div class="actions"><button type="submit" ?disabled=${busy}>Add or change the role</button></div>
      </form>
      <h3>Place in the tree</h3>
      <form @submit=${this._move} aria-label="Move the group">
        <label
          >Inside
          <select name="parentId">
            <option value="" ?selected=${group.parentId === null}>Nothing (a top-level group)</option>
            ${elsewhere.map((other) => html`<option value=${other.id} ?selected=${group.parentId === other.id}>${other.name}</option>`)}
          </select>
        </label>
        <div class="actions"><button type="submit" ?disabled=${busy}>Move</button></div>
      </form>
      <h3>Crew of a project</h3>
      ${this._renderCrew()}
    `
  }

  private _renderCrew() {
    const projects = this._projects.value ?? []
    if (projects.length === 0) return html`<p class="muted">You have no project to bind it to yet.</p>`
    return html`<form @submit=${this._bind} aria-label="Bind as a crew">
      <label
        >Project
        <select name="projectId" required>
          ${projects.map((project) => html`<option value=${project.id}>${project.title}</option>`)}
        </select>
      </label>
      <label class="check"><input type="checkbox" name="includeDescendants" /> Draw from the groups inside it too</label>
      <div class="actions"><button type="submit" ?disabled=${this._action.busy}>Bind as its crew</button></div>
    </form>`
  }

  private _changed(ok: boolean) {
    if (!ok) return
    this._detail.reload()
    fireEvent(this, "group-changed", {})
  }

  private readonly _add = onSubmit(async ({ field, clear }) => {
    const ok = await this._action.run(
      (client) =>
        client.groups.addMember({
          path: { id: this.groupId },
          payload: { beingId: field("beingId"), role: field("role").trim() }
        }),
      () => "The member is in."
    )
    if (ok) clear()
    this._changed(ok)
  })

  private async _remove(beingId: string, name: string) {
    this._changed(
      await this._action.run(
        (client) => client.groups.removeMember({ path: { id: this.groupId, beingId } }),
        () => `${name} is no longer a member.`
      )
    )
  }

  private readonly _move = onSubmit(async ({ field }) => {
    const parentId = field("parentId")
    this._changed(
      await this._action.run(
        (client) =>
          client.groups.updateGroup({
            path: { id: this.groupId },
            payload: { parentId: parentId === "" ? null : parentId }
          }),
        () => "Moved."
      )
    )
  })

  private readonly _bind = onSubmit(async ({ field }) => {
    await this._action.run(
      (client) =>
        client.groups.setCrew({
          path: { projectId: field("projectId") },
          payload: { groupId: this.groupId, includeDescendants: field("includeDescendants") === "on" }
        }),
      () => "Bound: the project's next run draws people from this group's seats."
    )
  })

  static override styles = [
    sharedStyles,
    css`
      .members {
        list-style: none;
        margin: 0 0 var(--node-space-3, 12px);
        padding: 0;
      }
      .members li {
        display: flex;
        flex-wrap: wrap;
        gap: 8px;
        align-items: center;
        padding: 4px 0;
      }
      .members .role {
        font-weight: 600;
      }
      .check {
        display: flex;
        gap: 8px;
        align-items: center;
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "spaces-group": SpacesGroup
  }
}

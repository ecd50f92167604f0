/**
 * The square's posts, newest first a page at a time, hidden ones too, each with the button that
 * hides or shows it.
 */
import { html, LitElement } from "lit"
import { customElement } from "lit/decorators.js"
import type { ModeratedPost } from "../../../extensions/souls/contract/records.ts"
import { ApiAction } from "../../components/api-action.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { PagedResource } from "../../components/paged-resource.ts"
import { LiveEvents } from "../../live/live-controllers.ts"
import { recordListStyles } from "../../styles/record-list-styles.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

@customElement("moderation-posts")
export class ModerationPosts extends LitElement {
  private readonly _posts = new PagedResource<ModeratedPost>(this, (client, page) =>
    client.moderation.listPosts({ urlParams: page })
  )

  private readonly _acting = new ApiAction(this)

  private readonly _live = new LiveEvents(this, { "square.post": () => void this._posts.reload() })

  protected override render() {
    return html`<section class="card" aria-labelledby="posts-title">
      <h2 id="posts-title">Square posts</h2>
      <node-alert .message=${this._posts.error || this._acting.error}></node-alert>
      <node-alert kind="success" .message=${this._acting.notice}></node-alert>
      ${this._posts.render("Loading posts…", (posts) => this._renderPosts(posts))}
      ${this._posts.renderMore("posts")}
    </section>`
  }

  private _renderPosts(posts: ReadonlyArray<ModeratedPost>) {
    if (posts.length === 0) return html`<p class="muted">Nobody has posted in the square yet.</p>`
    return html`<ul class="records" aria-label="Square posts">
      ${posts.map(
        (post) => html`<li data-id=${post.id} data-hidden=${post.hiddenAt === null ? "false" : "true"}>
          <p>${post.content}</p>
          <p class="meta muted">
            <span>${post.authorName}</span>
            <span>${formatDateTime(post.createdAt)}</span>
            ${post.hiddenAt === null ? "" : html`<span class="badge" data-tone="bad">Hidden</span>`}
            <button type="button" class="secondary" ?disabled=${this._acting.busy} aria-label=${`${post.hiddenAt === null ? "Hide" : "Show"} the post by ${post.authorName}`}
              @click=${() => this._toggle(post)}>${post.hiddenAt === null ? "Hide" : "Show"}</button>
          </p>
        </li>`
      )}
    </ul>`
  }

  private async _toggle(post: ModeratedPost): Promise<void> {
    const hide = post.hiddenAt === null
    const ok = await this._acting.run(
      (client) =>
        hide
          ? client.moderation.hidePost({ path: { id: post.id } })
          : client.moderation.showPost({ path: { id: post.id } }),
      () =>
        hide ? `The post by ${post.authorName} is hidden.` : `The post by ${post.authorName} is back in the square.`
    )
    if (ok) await this._posts.reload()
  }

  static override styles = [sharedStyles, recordListStyles]
}

declare global {
  interface HTMLElementTagNameMap {
    "moderation-posts": ModerationPosts
  }
}

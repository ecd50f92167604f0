/**
 * The world, at `/world`: the square, live. Posts arrive as they are made (`square.post`, from
 * anyone's tab or the square's life) without a reload; the place takes the square's mood as its
 * tint (`ambient`: the mean mood of the last posts, docs/decisions.md "Souls and the square"), its
 * tone by the mood's label and its strength by the mood's arousal. Every `hello` of the live
 * channel loads the feed and the mood again, which is how a tab that was away catches up. A
 * post's author leads to their page.
 */
import { css, html, LitElement } from "lit"
import { customElement, property } from "lit/decorators.js"
import type { Being } from "../../../extensions/accounts/contract/records.ts"
import type { Mood, Post } from "../../../extensions/souls/contract/records.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import type { NodeEventMap } from "../../shell/events.ts"
import { containerStyles, sharedStyles } from "../../styles/shared-styles.ts"
import "./square-composer.ts"

/** Newest first, each post once: what arrived goes on top of what was there. */
const merged = (arrived: ReadonlyArray<Post>, feed: ReadonlyArray<Post>): ReadonlyArray<Post> => {
  const known = new Set(feed.map((post) => post.id))
  const fresh = arrived.filter((post) => !known.has(post.id))
  return [...fresh, ...feed].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

@customElement("world-place")
export class WorldPlace extends LitElement {
  /** Who is signed in: the owner runs the square's life. */
  @property({ attribute: false }) accessor being: Being | null = null

  private readonly _feed = new ApiResource(this, (client) => client.beings.square(), { loadOnConnect: false })

  private readonly _mood = new ApiResource(this, (client) => client.beings.squareMood(), { loadOnConnect: false })

  private readonly _load = new LiveLoad(this, () => {
    void this._feed.reload()
    void this._mood.reload()
  })

  private readonly _live = new LiveEvents(this, {
    "square.post": ({ post }) => this._arrive([post]),
    // Hidden by moderation, deleted, or taken back by its author on a peer node.
    "square.retracted": ({ postId }) => {
      const feed = this._feed.value
      if (feed !== null) this._feed.replace(feed.filter((post) => post.id !== postId))
    },
    ambient: ({ mood }) => this._mood.replace(mood)
  })

  override connectedCallback(): void {
    super.connectedCallback()
    this.addEventListener("square-posted", this._onPosted)
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback()
    this.removeEventListener("square-posted", this._onPosted)
  }

  protected override updated(): void {
    this._tint(this._mood.value)
  }

  protected override render() {
    return html`
      <h1 tabindex="-1">World</h1>
      <p class="muted">The square: what the people and citizens of this node say, as they say it, and what the nodes it follows send.</p>
      ${this._mood.render("", (mood) => html`<p class="ambient" role="status">The square feels <strong>${mood.label}</strong>.</p>`)}
      <node-alert .message=${this._feed.error || this._mood.error}></node-alert>
      <div class="split">
        <section class="square" aria-labelledby="square-title">
          <h2 id="square-title">The square</h2>
          ${this._feed.render("Loading the square…", (posts) => this._renderPosts(posts))}
        </section>
        <square-composer ?owner=${this.being?.isOwner === true}></square-composer>
      </div>
    `
  }

  private _renderPosts(posts: ReadonlyArray<Post>) {
    if (posts.length === 0) return html`<p class="muted">The square is quiet. Say something to start it.</p>`
    return html`<ol class="posts" aria-label="Posts, newest first">
      ${posts.map(
        (post) => html`<li data-post=${post.id}>
        <p class="meta">
          ${
            post.origin === undefined
              ? html`<a href="/beings/${encodeURIComponent(post.authorId)}">${post.authorName}</a>`
              : html`<span class="remote-author" title=${post.origin.authorDid}>${post.authorName}</span>
              <span class="badge origin" title=${`Signed by ${post.origin.authorDid}, sent by ${post.origin.peerDid}`}>from ${post.origin.peerName ?? "a peer node"}</span>`
          }
          <time class="muted" datetime=${post.createdAt}>${formatDateTime(post.createdAt)}</time>
          <span class="badge" title="How the post reads">${post.mood.label}</span>
        </p>
        <p class="content">${post.content}</p>
      </li>`
      )}
    </ol>`
  }

  private _arrive(posts: ReadonlyArray<Post>): void {
    const feed = this._feed.value
    if (feed !== null) this._feed.replace(merged(posts, feed))
  }

  private readonly _onPosted = (event: NodeEventMap["square-posted"]): void => this._arrive(event.detail.posts)

  /**
   * The tint, on the element itself: the tone by the mood's label (an attribute the styles read),
   * its strength by arousal (a custom property set through the CSSOM, which the content security
   * policy allows where a style attribute would be refused).
   */
  private _tint(mood: Mood | null): void {
    if (mood === null) return
    this.dataset.mood = mood.label
    this.style.setProperty("--world-strength", `${Math.round(25 + 55 * mood.arousal)}%`)
  }

  static override styles = [
    sharedStyles,
    containerStyles,
    css`
      :host {
        --world-tone: var(--node-accent-soft);
        --world-strength: 40%;
        --world-tint: color-mix(in srgb, var(--world-tone) var(--world-strength), var(--node-surface));
      }
      :host([data-mood="joyful"]) {
        --world-tone: var(--node-warning-bg);
      }
      :host([data-mood="content"]) {
        --world-tone: var(--node-success-bg);
      }
      :host([data-mood="tense"]) {
        --world-tone: var(--node-danger-bg);
      }
      :host([data-mood="low"]) {
        --world-tone: var(--node-surface-raised);
      }
      :host([data-mood="alert"]) {
        --world-tone: var(--node-accent-soft);
      }
      .ambient {
        display: inline-block;
        background: var(--world-tint);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-pill);
        padding: var(--node-space-1) var(--node-space-4);
        margin: 0 0 var(--node-space-4);
      }
      .square {
        background: var(--world-tint);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius-lg);
        padding: var(--node-space-5);
        margin: 0 0 var(--node-space-4);
        min-width: 0;
        transition: background-color 600ms ease-out;
      }
      .posts {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
        gap: var(--node-space-3);
      }
      .posts li {
        background: var(--node-surface);
        border: 1px solid var(--node-border);
        border-radius: var(--node-radius);
        padding: var(--node-space-3) var(--node-space-4);
        min-width: 0;
      }
      .meta {
        display: flex;
        flex-wrap: wrap;
        align-items: baseline;
        gap: var(--node-space-1) var(--node-space-2);
        margin: 0 0 var(--node-space-1);
        font-size: var(--node-font-size-sm);
      }
      .meta a {
        font-weight: var(--node-font-weight-semibold);
        overflow-wrap: anywhere;
      }
      .content {
        margin: 0;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
      }
      @media (max-width: 700px) {
        .square {
          padding: var(--node-space-3);
          border-radius: var(--node-radius);
        }
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "world-place": WorldPlace
  }
}

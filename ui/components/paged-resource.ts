/**
 * A list the node answers a page at a time (kernel/contract/page.ts): it shows the first page,
 * and "Show more" asks for the next. Loading again (after an action, a live event, a reconnect)
 * reads as many items as are shown, from the top, so a list never shows a page from before a
 * change beside one from after it. Everything else (retries, the loading line, stale answers
 * dropped) is `ApiResource`'s.
 */
import { html, nothing, type ReactiveControllerHost } from "lit"
import * as Effect from "effect/Effect"
import { PAGE_DEFAULT, PAGE_MAX, type Page, readUpTo } from "../../kernel/contract/page.ts"
import type { NodeClient } from "../api/client.ts"
import { ApiResource, type ApiResourceOptions } from "./api-resource.ts"

export class PagedResource<A> {
  /** How many items the person has asked to see: a page more each "Show more". */
  private shown: number

  private readonly pageSize: number

  private readonly resource: ApiResource<ReadonlyArray<A>>

  constructor(
    host: ReactiveControllerHost,
    loadPage: (client: NodeClient, page: Page) => Effect.Effect<ReadonlyArray<A>, unknown>,
    options: ApiResourceOptions & { readonly pageSize?: number } = {}
  ) {
    this.pageSize = Math.min(options.pageSize ?? PAGE_DEFAULT, PAGE_MAX)
    this.shown = this.pageSize
    const loadShown = (client: NodeClient) => readUpTo(this.shown, (page) => loadPage(client, page))
    this.resource = new ApiResource(host, loadShown, options)
  }

  /** The items shown so far; null until the first answer. */
  get value(): ReadonlyArray<A> | null {
    return this.resource.value
  }

  get error(): string {
    return this.resource.error
  }

  get loading(): boolean {
    return this.resource.loading
  }

  /** Whether the node may hold more than is shown: the last read filled every item asked for. */
  get more(): boolean {
    const value = this.resource.value
    return value !== null && value.length >= this.shown
  }

  reload(): Promise<void> {
    return this.resource.reload()
  }

  /** Asks for one more page. */
  showMore(): Promise<void> {
    this.shown += this.pageSize
    return this.resource.reload()
  }

  render(loadingLine: string, show: (value: ReadonlyArray<A>) => unknown): unknown {
    return this.resource.render(loadingLine, show)
  }

  /** The "Show more" button, while the node may hold more; `what` names the items ("projects"). */
  renderMore(what: string): unknown {
    if (!this.more) return nothing
    return html`<button type="button" class="show-more" ?disabled=${this.loading} @click=${() => void this.showMore()}>
      Show more ${what}
    </button>`
  }
}

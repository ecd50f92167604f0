/**
 * The portfolio: every project of the person, grouped by where it stands (the node decides:
 * waiting on them, running, stalled past its due date, done), each a link to its page with its
 * state and how many of its steps are done. It loads again when one of their projects changes
 * (`project.updated`) and on every `hello` of the live channel, to catch up. The waiting and the
 * done ones come a page at a time (the groups that grow with use), newest first; "Show more" under
 * either asks for the next page of both.
 */
import { css, html, LitElement, nothing } from "lit"
import { customElement } from "lit/decorators.js"
import type { Portfolio } from "../../../actors/project/contract/records.ts"
import * as Effect from "effect/Effect"
import { PAGE_DEFAULT, PAGE_MAX } from "../../../kernel/contract/page.ts"
import type { NodeClient } from "../../api/client.ts"
import { ApiResource } from "../../components/api-resource.ts"
import { coalesce } from "../../components/coalesce.ts"
import { formatDateTime } from "../../components/format.ts"
import "../../components/node-alert.ts"
import { badge, projectStatusWords } from "../../components/studio-labels.ts"
import { LiveEvents, LiveLoad } from "../../live/live-controllers.ts"
import { sharedStyles } from "../../styles/shared-styles.ts"

type Group = keyof Portfolio

const groups: ReadonlyArray<{ readonly key: Group; readonly title: string; readonly hint: string }> = [
  { key: "waiting", title: "Waiting on you", hint: "Runs that stopped (resume them) or wait for your answer." },
  { key: "running", title: "Running", hint: "" },
  { key: "stalled", title: "Stalled", hint: "Still running past their due date." },
  { key: "done", title: "Done", hint: "" }
]

@customElement("studio-portfolio")
export class StudioPortfolio extends LitElement {
  /** How many waiting and done projects the person has asked to see (each group pages; kernel/contract/page.ts). */
  private _shown = PAGE_DEFAULT

  /** Every project running or stalled, and the waiting and done ones up to `_shown`, in pages of at most PAGE_MAX. */
  private readonly _load = (client: NodeClient) =>
    Effect.gen(this, function* () {
      let first: Portfolio | null = null
      const waiting: Array<Portfolio["waiting"][number]> = []
      const done: Array<Portfolio["done"][number]> = []
      for (let offset = 0; offset < this._shown; ) {
        const limit = Math.min(PAGE_MAX, this._shown - offset)
        const page = yield* client.studioProjects.portfolio({ urlParams: { limit, offset } })
        first ??= page
        waiting.push(...page.waiting)
        done.push(...page.done)
        offset += limit
        // Both pages short: both groups ended.
        if (page.waiting.length < limit && page.done.length < limit) break
      }
      return { ...first!, waiting, done }
    })

  private readonly _portfolio = new ApiResource(this, this._load, { loadOnConnect: false })

  private readonly _reloadSoon = coalesce(() => this._portfolio.reload())

  // Named, though nothing reads them: they load and listen while the portfolio is on screen.
  private readonly _loading = new LiveLoad(this, () => this._reloadSoon())

  private readonly _live = new LiveEvents(this, { "project.updated": () => this._reloadSoon() })

  protected override render() {
    return html`
      <section class="card" aria-labelledby="portfolio-title">
        <h2 id="portfolio-title">Your projects</h2>
        <node-alert .message=${this._portfolio.error}></node-alert>
        ${this._portfolio.render("Loading your projects…", (portfolio) => this._renderPortfolio(portfolio))}
      </section>
    `
  }

  private _renderPortfolio(portfolio: Portfolio) {
    const shown = groups.filter((group) => portfolio[group.key].length > 0)
    if (shown.length === 0) return html`<p class="muted">No projects yet. Start one above.</p>`
    return shown.map(
      (group) => html`<section class="group" data-group=${group.key} aria-labelledby=${`group-${group.key}`}>
        <h3 id=${`group-${group.key}`}>${group.title} <span class="muted">(${this._count(portfolio, group.key)})</span></h3>
        ${group.hint === "" ? nothing : html`<p class="muted hint">${group.hint}</p>`}
        <ul class="projects">
          ${portfolio[group.key].map(
            ({ project, tasksDone, tasksTotal }) => html`<li class="project" data-project-id=${project.id}>
              <a href=${`/studio/${encodeURIComponent(project.id)}`}>${project.title}</a>
              ${badge(projectStatusWords[project.status])}
              <span class="muted">
                ${tasksTotal === 0 ? "No steps yet" : `${tasksDone} of ${tasksTotal} steps done`} · updated
                <time datetime=${project.updatedAt}>${formatDateTime(project.updatedAt)}</time>
              </span>
            </li>`
          )}
        </ul>
        ${
          this._more(portfolio, group.key)
            ? html`<button type="button" class="show-more" ?disabled=${this._portfolio.loading} @click=${this._showMore}>
                Show more ${group.key === "done" ? "done" : "waiting"} projects
              </button>`
            : nothing
        }
      </section>`
    )
  }

  /** Whether the node may hold more of a paged group than is shown: every one asked for came. */
  private _more(portfolio: Portfolio, group: Group): boolean {
    return (group === "waiting" || group === "done") && portfolio[group].length >= this._shown
  }

  private _count(portfolio: Portfolio, group: Group): string {
    const count = portfolio[group].length
    return this._more(portfolio, group) ? `${count}+` : String(count)
  }

  private readonly _showMore = (): void => {
    this._shown += PAGE_DEFAULT
    void this._portfolio.reload()
  }

  static override styles = [
    sharedStyles,
    css`
      .group + .group {
        margin-top: var(--node-space-5);
      }
      /* A group's name is a small label over its projects. */
      h3 {
        font-size: var(--node-font-size-xs);
        text-transform: uppercase;
        letter-spacing: var(--node-letter-spacing-caps);
        color: var(--node-muted);
        margin: 0 0 var(--node-space-2);
      }
      .hint {
        font-size: var(--node-font-size-sm);
        margin: 0 0 var(--node-space-2);
      }
      .projects {
        list-style: none;
        margin: 0;
        padding: 0;
        display: grid;
      }
      .project {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--node-space-1) var(--node-space-3);
        padding: var(--node-space-3) 0;
        border-top: 1px solid var(--node-border);
      }
      .project a {
        font-weight: var(--node-font-weight-semibold);
        overflow-wrap: anywhere;
        text-decoration: none;
      }
      .project a:hover {
        text-decoration: underline;
      }
      .project .muted {
        flex-basis: 100%;
        font-size: var(--node-font-size-sm);
      }
    `
  ]
}

declare global {
  interface HTMLElementTagNameMap {
    "studio-portfolio": StudioPortfolio
  }
}

/**
 * The titles of the projects that raised signals (source `studio:<projectId>`), so a signal says
 * which project it is about in words, not by id. Each project a signal names is asked for once
 * (its list pages, and the project may be an old one); one that is not there any more (deleted)
 * has no title.
 */
import type { ReactiveControllerHost } from "lit"
import { request } from "../../api/client.ts"
import { coalesce } from "../../components/coalesce.ts"

export class ProjectTitles {
  private readonly _host: ReactiveControllerHost

  private readonly _titles = new Map<string, string>()

  /** Ids asked for and looked up: a missing one is not asked for again. */
  private readonly _looked = new Set<string>()

  private _wanted = new Set<string>()

  private readonly _loadSoon = coalesce(() => this._load())

  constructor(host: ReactiveControllerHost) {
    this._host = host
  }

  /** The project's title, or null while it is unknown (asked for now) or gone. */
  titleOf(projectId: string): string | null {
    const title = this._titles.get(projectId)
    if (title !== undefined) return title
    if (!this._looked.has(projectId) && !this._wanted.has(projectId)) {
      this._wanted.add(projectId)
      this._loadSoon()
    }
    return null
  }

  private async _load(): Promise<void> {
    const asked = [...this._wanted]
    this._wanted = new Set()
    await Promise.all(
      asked.map(async (id) => {
        const result = await request((client) => client.studioProjects.getProject({ path: { id } }))
        if (result.ok) this._titles.set(id, result.value.project.title)
        // Gone (404) is an answer; a failure on the way is asked again when the signal is drawn again.
        if (result.ok || result.failure.status === 404) this._looked.add(id)
      })
    )
    this._host.requestUpdate()
  }
}

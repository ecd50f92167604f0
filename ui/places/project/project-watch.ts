/**
 * One project as its page shows it, kept current from two sides: loads over HTTP (the project
 * with its steps, team and review; and its whole trace, page by page) when the page opens and on
 * every `hello` of the live channel, and the live events of this project in between:
 * `project.updated` replaces the record, `task.updated` a step, `trace` adds an event.
 *
 * Loads and events race, as on the desktop: the records that arrive while a load of the project
 * is under way are applied again over what it answers, and a project record never replaces a
 * newer one (`updatedAt`). Trace events never change once written, so the trace is a set by id
 * that loads and events both add to, in id order (the node's ids increase). The review and the
 * team are not in the project record, so a change of state or team loads the project again.
 */
import type { ReactiveController, ReactiveControllerHost } from "lit"
import type { Project, ProjectDetail, Task, TraceEvent } from "../../../actors/project/contract/records.ts"
import { request } from "../../api/client.ts"
import { coalesce } from "../../components/coalesce.ts"
import { type LiveChannel, liveChannel } from "../../live/live-channel.ts"
import { LiveLoad } from "../../live/live-controllers.ts"

/** Trace events asked for at once (the route's most). */
const TRACE_PAGE = 1000

type Change = { readonly project: Project } | { readonly task: Task }

const byId = (a: TraceEvent, b: TraceEvent): number => Number(a.id) - Number(b.id)

export class ProjectWatch implements ReactiveController {
  /** The project, its steps, team and review; null until the first load answered. */
  detail: ProjectDetail | null = null

  /** Why the last load of the project failed, in the node's words; empty when it did not. */
  error = ""

  loading = false

  /** The trace, oldest first. */
  trace: ReadonlyArray<TraceEvent> = []

  /** Why the last load of the trace failed; empty when it did not. */
  traceError = ""

  private readonly _host: ReactiveControllerHost

  private readonly _channel: LiveChannel

  private _projectId = ""

  private _connected = false

  private _stops: Array<() => void> = []

  private _detailGeneration = 0

  private _traceGeneration = 0

  /** The records applied since the oldest load of the project still under way began; null when none is. */
  private _sinceLoad: Array<Change> | null = null

  private readonly _traceById = new Map<string, TraceEvent>()

  private readonly _reloadDetailSoon = coalesce(() => this.reloadDetail())

  private readonly _loading: LiveLoad

  constructor(host: ReactiveControllerHost, channel: LiveChannel = liveChannel) {
    this._host = host
    this._channel = channel
    host.addController(this)
    this._loading = new LiveLoad(host, () => void this.reload(), channel)
  }

  get projectId(): string {
    return this._projectId
  }

  hostConnected(): void {
    this._connected = true
    this._stops = [
      this._channel.on("project.updated", ({ project }) => this.applyProject(project)),
      this._channel.on("task.updated", ({ task }) => this._applyTask(task)),
      this._channel.on("trace", ({ event }) => this._addTrace([event]))
    ]
  }

  hostDisconnected(): void {
    this._connected = false
    for (const stop of this._stops) stop()
    this._stops = []
  }

  /** Shows another project (the page's id changed): forgets this one and loads that one. */
  watch(projectId: string): void {
    if (projectId === this._projectId) return
    this._projectId = projectId
    this._detailGeneration++
    this._traceGeneration++
    this._sinceLoad = null
    this.detail = null
    this.error = ""
    this.loading = false
    this.trace = []
    this.traceError = ""
    this._traceById.clear()
    this._host.requestUpdate()
    if (this._connected && projectId !== "") this._loading.request()
  }

  reload(): Promise<void> {
    if (this._projectId === "") return Promise.resolve()
    return Promise.all([this.reloadDetail(), this.reloadTrace()]).then(() => undefined)
  }

  async reloadDetail(): Promise<void> {
    const id = this._projectId
    const generation = ++this._detailGeneration
    this._sinceLoad ??= []
    this.loading = true
    this._host.requestUpdate()
    const result = await request((client) => client.studioProjects.getProject({ path: { id } }))
    if (generation !== this._detailGeneration) return
    const since = this._sinceLoad ?? []
    this._sinceLoad = null
    this.loading = false
    if (result.ok) {
      this.error = ""
      this.detail = result.value
      for (const change of since) {
        if ("project" in change) this.applyProject(change.project)
        else this._applyTask(change.task)
      }
    } else {
      this.error = result.failure.message
    }
    this._host.requestUpdate()
  }

  /** Every event of the trace, a page at a time; what is already known stays. */
  async reloadTrace(): Promise<void> {
    const id = this._projectId
    const generation = ++this._traceGeneration
    let after = 0
    for (;;) {
      const result = await request((client) =>
        client.studioProjects.projectTrace({ path: { id }, urlParams: { after, limit: TRACE_PAGE } })
      )
      if (generation !== this._traceGeneration) return
      if (!result.ok) {
        this.traceError = result.failure.message
        this._host.requestUpdate()
        return
      }
      this.traceError = ""
      this._addTrace(result.value)
      const last = result.value.at(-1)
      if (result.value.length < TRACE_PAGE || last === undefined) return
      after = Number(last.id)
    }
  }

  /** A newer record of the project: a live event's, or what the node answered to cancel or resume. */
  applyProject(project: Project): void {
    if (project.id !== this._projectId) return
    this._sinceLoad?.push({ project })
    const detail = this.detail
    if (detail === null || project.updatedAt < detail.project.updatedAt) return
    this.detail = { ...detail, project }
    this._host.requestUpdate()
    // A plan edit removes steps, which no task event tells: a new plan version loads the steps again.
    const changed =
      project.status !== detail.project.status ||
      project.teamId !== detail.project.teamId ||
      project.planVersion !== detail.project.planVersion
    if (changed) this._reloadDetailSoon()
  }

  private _applyTask(task: Task): void {
    if (task.projectId !== this._projectId) return
    this._sinceLoad?.push({ task })
    const detail = this.detail
    if (detail === null) return
    const known = detail.tasks.some((candidate) => candidate.id === task.id)
    const tasks = known
      ? detail.tasks.map((candidate) => (candidate.id === task.id ? task : candidate))
      : [...detail.tasks, task]
    this.detail = { ...detail, tasks }
    this._host.requestUpdate()
  }

  private _addTrace(events: ReadonlyArray<TraceEvent>): void {
    const fresh = events.filter((event) => event.projectId === this._projectId && !this._traceById.has(event.id))
    if (fresh.length === 0) return
    for (const event of fresh) this._traceById.set(event.id, event)
    const last = this.trace.at(-1)
    const inOrder = fresh.every((event, index) => index === 0 || Number(fresh[index - 1].id) < Number(event.id))
    this.trace =
      inOrder && (last === undefined || Number(last.id) < Number(fresh[0].id))
        ? [...this.trace, ...fresh]
        : [...this._traceById.values()].sort(byId)
    this._host.requestUpdate()
  }
}

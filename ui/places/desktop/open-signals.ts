/**
 * The desktop's open signals in the desktop's order (`desktopOrder`), kept current from two sides: a load over HTTP
 * (when
 * the desktop opens, and on every `hello` of the live channel, to catch up) and each newer record
 * that arrives later (a live `signal.created` or `signal.updated`, or the answer to this tab's own
 * answer or dismissal). A record that is no longer open leaves the list.
 *
 * A load and the live events race: the node may read the list just before a signal is raised
 * and answer just after its `signal.created` arrived. So the records that arrive while a load
 * is under way are applied again over the list it answers, and a record never replaces a newer
 * one of the same signal (by `updatedAt`). The order is kept here, on the client, for the load and
 * for every live record alike: the node lists newest first, as it does for every client.
 */
import type { ReactiveControllerHost } from "lit"
import type { Signal, SignalPriority } from "../../../actors/being/contract/signal.ts"
import { request } from "../../api/client.ts"
import { LiveLoad } from "../../live/live-controllers.ts"

/** As many as the list route gives at once; the desktop says when there may be more. */
export const SIGNALS_SHOWN = 200

const priorityRank: Readonly<Record<SignalPriority, number>> = { urgent: 0, high: 1, normal: 2, low: 3 }

/** Most pressing first: by priority, then the soonest due (none last), then the newest. */
export const desktopOrder = (a: Signal, b: Signal): number =>
  priorityRank[a.priority] - priorityRank[b.priority] ||
  (a.dueAt === b.dueAt
    ? 0
    : a.dueAt === null
      ? 1
      : b.dueAt === null
        ? -1
        : Date.parse(a.dueAt) - Date.parse(b.dueAt)) ||
  (a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1)

export class OpenSignals {
  /** The open signals in the desktop's order; null until the first load answered. */
  signals: ReadonlyArray<Signal> | null = null

  /** Why the last load failed, in the node's words; empty when it did not. */
  error = ""

  loading = false

  private readonly _host: ReactiveControllerHost

  private _generation = 0

  /** The records applied since the oldest load still under way began; null when none is. */
  private _sinceLoad: Array<Signal> | null = null

  constructor(host: ReactiveControllerHost) {
    this._host = host
    // Loads when the desktop opens and at every hello of the live channel, to catch up.
    new LiveLoad(host, () => void this.reload())
  }

  async reload(): Promise<void> {
    const generation = ++this._generation
    this._sinceLoad ??= []
    this.loading = true
    this._host.requestUpdate()
    const result = await request((client) =>
      client.desktop.listSignals({ urlParams: { status: "open", limit: SIGNALS_SHOWN, offset: 0 } })
    )
    if (generation !== this._generation) return
    const since = this._sinceLoad ?? []
    this._sinceLoad = null
    this.loading = false
    if (result.ok) {
      this.error = ""
      let signals: ReadonlyArray<Signal> = [...result.value].sort(desktopOrder)
      for (const signal of since) signals = merge(signals, signal)
      this.signals = signals
    } else {
      this.error = result.failure.message
    }
    this._host.requestUpdate()
  }

  /** Takes a newer record of one signal: a live event's, or what the node answered to an action. */
  apply(signal: Signal): void {
    this._sinceLoad?.push(signal)
    if (this.signals === null) return
    this.signals = merge(this.signals, signal)
    this._host.requestUpdate()
  }
}

const merge = (signals: ReadonlyArray<Signal>, signal: Signal): ReadonlyArray<Signal> => {
  const known = signals.find((candidate) => candidate.id === signal.id)
  if (known !== undefined && known.updatedAt > signal.updatedAt) return signals
  const others = signals.filter((candidate) => candidate.id !== signal.id)
  return signal.status === "open" ? [...others, signal].sort(desktopOrder) : others
}

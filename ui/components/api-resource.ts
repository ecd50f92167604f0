/**
 * What a section shows, loaded through the typed client each time the section is connected and
 * again on `reload()` after an action changed it. A section declares the call and how to draw the
 * value; the loading line and the failure in words are the same everywhere.
 *
 * A load that failed for want of the node (no answer, or a 5xx: a node restarting, a proxy
 * without its node) is tried again by itself with backoff (backoff.ts) while the section is on
 * screen, so a section recovers once the node is back instead of staying in error. A refusal
 * (4xx) is an answer and is not tried again.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from "lit"
import type * as Effect from "effect/Effect"
import { type Failure, type NodeClient, request } from "../api/client.ts"
import type { NodeEvents } from "../shell/events.ts"
import { retryDelay } from "./backoff.ts"

export interface ApiResourceOptions {
  /**
   * Whether connecting loads (default true). A section whose data the live channel keeps current
   * says false and loads through `LiveLoad`, which waits for the channel's hello at first.
   */
  readonly loadOnConnect?: boolean
  /** App events after which the value may be out of date: each, heard on the window, loads again. */
  readonly reloadOn?: ReadonlyArray<keyof NodeEvents>
}

/** A failure that may go away by itself: the node did not answer, or answered that it failed. */
const passing = (failure: Failure): boolean =>
  failure.status === null ? failure.code === "network" : failure.status >= 500

const retryWords = (failure: Failure): string =>
  failure.status === null
    ? "The node did not answer. Trying again by itself; check that it is running and that you are online."
    : `${failure.message} Trying again by itself.`

export class ApiResource<A> implements ReactiveController {
  /** The last value the node answered; null until the first answer. */
  value: A | null = null

  /** Why the last load failed, in the node's words; empty when it did not. */
  error = ""

  /** Whether a load is under way. */
  loading = false

  private readonly host: ReactiveControllerHost

  private readonly load: (client: NodeClient) => Effect.Effect<A, unknown>

  private readonly loadOnConnect: boolean

  private readonly reloadOn: ReadonlyArray<keyof NodeEvents>

  /** Counts loads, so that only the newest answer lands (see `reload`). */
  private generation = 0

  private connected = false

  /** Failed loads in a row that may pass: how long the next wait is. */
  private attempt = 0

  private retryTimer: ReturnType<typeof setTimeout> | undefined

  constructor(
    host: ReactiveControllerHost,
    load: (client: NodeClient) => Effect.Effect<A, unknown>,
    options: ApiResourceOptions = {}
  ) {
    this.host = host
    this.load = load
    this.loadOnConnect = options.loadOnConnect ?? true
    this.reloadOn = options.reloadOn ?? []
    host.addController(this)
  }

  hostConnected(): void {
    this.connected = true
    for (const type of this.reloadOn) window.addEventListener(type, this.onStale)
    if (this.loadOnConnect) void this.reload()
  }

  hostDisconnected(): void {
    this.connected = false
    for (const type of this.reloadOn) window.removeEventListener(type, this.onStale)
    clearTimeout(this.retryTimer)
  }

  /**
   * Loads again. The last value stays on screen meanwhile, so a list does not flash back to its
   * loading line after every action; an older load that answers late (the first load racing a
   * reload after an action) is dropped, or it would show the list from before the action.
   */
  async reload(): Promise<void> {
    clearTimeout(this.retryTimer)
    const generation = ++this.generation
    this.loading = true
    this.host.requestUpdate()
    const result = await request(this.load)
    if (generation !== this.generation) return
    this.loading = false
    if (result.ok) {
      this.value = result.value
      this.error = ""
      this.attempt = 0
    } else if (passing(result.failure) && this.connected) {
      this.error = retryWords(result.failure)
      this.retryTimer = setTimeout(() => void this.reload(), retryDelay(this.attempt++))
    } else {
      this.error = result.failure.message
    }
    this.host.requestUpdate()
  }

  private readonly onStale = (): void => {
    void this.reload()
  }

  /** Takes the newer value an action answered (a suspended account, a sent mail's status) without asking again. */
  replace(value: A): void {
    this.value = value
    this.host.requestUpdate()
  }

  /**
   * The value drawn by `show`. Before the first answer, a loading line that says what is coming;
   * after a failed first load, nothing, because the section's alert says why (`error`).
   */
  render(loadingLine: string, show: (value: A) => unknown): unknown {
    if (this.value !== null) return show(this.value)
    return this.loading ? html`<p class="muted" role="status">${loadingLine}</p>` : nothing
  }
}

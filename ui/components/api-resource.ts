/**
 * What a section shows, loaded through the typed client each time the section is connected and
 * again on `reload()` after an action changed it. A section declares the call and how to draw the
 * value; the loading line and the failure in words are the same everywhere.
 */
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from "lit"
import type * as Effect from "effect/Effect"
import { type NodeClient, request } from "../api/client.ts"

export class ApiResource<A> implements ReactiveController {
  /** The last value the node answered; null until the first answer. */
  value: A | null = null

  /** Why the last load failed, in the node's words; empty when it did not. */
  error = ""

  /** Whether a load is under way. */
  loading = false

  private readonly host: ReactiveControllerHost

  private readonly load: (client: NodeClient) => Effect.Effect<A, unknown>

  /** Counts loads, so that only the newest answer lands (see `reload`). */
  private generation = 0

  constructor(host: ReactiveControllerHost, load: (client: NodeClient) => Effect.Effect<A, unknown>) {
    this.host = host
    this.load = load
    host.addController(this)
  }

  hostConnected(): void {
    void this.reload()
  }

  /**
   * Loads again. The last value stays on screen meanwhile, so a list does not flash back to its
   * loading line after every action; an older load that answers late (the first load racing a
   * reload after an action) is dropped, or it would show the list from before the action.
   */
  async reload(): Promise<void> {
    const generation = ++this.generation
    this.loading = true
    this.host.requestUpdate()
    const result = await request(this.load)
    if (generation !== this.generation) return
    this.loading = false
    if (result.ok) {
      this.value = result.value
      this.error = ""
    } else {
      this.error = result.failure.message
    }
    this.host.requestUpdate()
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

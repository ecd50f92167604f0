/**
 * The thread a place's address names (`?thread=<id>`): the one on the list shown when it is there
 * (the list is kept current), else read by its id (GET /api/threads/:id), since a list shows the
 * newest threads a page at a time and an address may name an older one. Read again whenever the
 * address names another thread, and on `load()` (the live channel's hello).
 */
import type { ReactiveController, ReactiveControllerHost } from "lit"
import type { Thread } from "../../extensions/threads/contract/records.ts"
import { request } from "../api/client.ts"

export class OpenThread implements ReactiveController {
  /** The node said the named thread is not among the caller's (left, another's, or none). */
  missing = false

  /** Why reading it failed otherwise, in the node's words; empty when it did not. */
  error = ""

  /** The named thread as last read by its id; null before the answer or when it is missing. */
  private thread: Thread | null = null

  /** The id the address names now ("" for none): what was last asked for. */
  private named = ""

  private readonly host: ReactiveControllerHost

  private readonly idOf: () => string

  constructor(host: ReactiveControllerHost, idOf: () => string) {
    this.host = host
    this.idOf = idOf
    host.addController(this)
  }

  /** Before each render: an address that names another thread reads that one. */
  hostUpdate(): void {
    if (this.idOf() !== this.named) void this.load()
  }

  /** Reads the named thread (again). */
  async load(): Promise<void> {
    const id = this.idOf()
    this.named = id
    this.missing = false
    this.error = ""
    if (id === "") {
      this.thread = null
      return
    }
    const result = await request((client) => client.threads.getThread({ path: { id } }))
    if (id !== this.named) return
    if (result.ok) this.thread = result.value
    else if (result.failure.status === 404) {
      this.thread = null
      this.missing = true
    } else this.error = result.failure.message
    this.host.requestUpdate()
  }

  /** Takes a newer view of the thread that a live event told. */
  take(thread: Thread): void {
    if (thread.id !== this.named) return
    this.thread = thread
    this.missing = false
    this.host.requestUpdate()
  }

  /** The named thread: from `listed` when it is there, else as read by its id; null for none (yet). */
  of(listed: ReadonlyArray<Thread> | null): Thread | null {
    if (this.named === "") return null
    return listed?.find((thread) => thread.id === this.named) ?? (this.thread?.id === this.named ? this.thread : null)
  }
}

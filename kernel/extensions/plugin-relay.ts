/**
 * The other processes sharing the node's database (host/broadcast binds this on PostgreSQL
 * only): a plugin is installed or removed by the process that took the request, and every other
 * process must load or drop it too, from the same row and the same shared plugin folder.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"

export interface PluginChange {
  readonly change: "installed" | "removed"
  readonly id: string
}

export class PluginRelay extends Context.Tag("kernel/PluginRelay")<
  PluginRelay,
  {
    readonly send: (change: PluginChange) => Effect.Effect<void>
    /** What other processes changed; null when this process was deaf for a while and must compare every row. */
    readonly heard: Effect.Effect<Queue.Dequeue<PluginChange | null>, never, Scope.Scope>
  }
>() {}

/**
 * Plugins across processes (kernel/extensions/plugin-relay.ts): `plugin.installed(id)` and
 * `plugin.removed(id)` from the process that took the request; every other process loads or
 * drops the plugin, and compares every row after a deaf spell (`listen.resumed`). Bound only on PostgreSQL.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { PluginRelay, type PluginChange } from "../../kernel/extensions/plugin-relay.ts"
import { Broadcast } from "../../kernel/broadcast.ts"
import { BroadcastLive } from "./broadcast.ts"

export const PluginRelayLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.unwrapEffect(
  Effect.map(Broadcast, (broadcast) =>
    broadcast.active
      ? Layer.succeed(PluginRelay, {
          send: (change: PluginChange) =>
            broadcast.send({
              kind: change.change === "installed" ? "plugin.installed" : "plugin.removed",
              id: change.id
            }),
          heard: Effect.gen(function* () {
            const heard = yield* Queue.unbounded<PluginChange | null>()
            const incoming = yield* broadcast.subscribe
            yield* Effect.forkScoped(
              Effect.forever(
                Effect.flatMap(Queue.take(incoming), (body) => {
                  if (body.kind === "plugin.installed") return Queue.offer(heard, { change: "installed", id: body.id })
                  if (body.kind === "plugin.removed") return Queue.offer(heard, { change: "removed", id: body.id })
                  if (body.kind === "listen.resumed") return Queue.offer(heard, null)
                  return Effect.void
                })
              )
            )
            return heard
          })
        })
      : Layer.empty
  )
).pipe(Layer.provide(BroadcastLive))

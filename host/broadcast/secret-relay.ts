/**
 * Connection secrets across processes (extensions/twin/connection-credentials.ts): a
 * `connection.secret-changed` naming the being and provider (never the secret) on every write,
 * and a reload of that row in every other process; after a deaf spell (`listen.resumed`) every
 * secret is reloaded. Bound only on PostgreSQL.
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { SecretChangeRelay, type SecretChange } from "../../extensions/twin/ports.ts"
import { Broadcast } from "../../kernel/broadcast.ts"
import { BroadcastLive } from "./broadcast.ts"

export const SecretChangeRelayLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.unwrapEffect(
  Effect.map(Broadcast, (broadcast) =>
    broadcast.active
      ? Layer.succeed(SecretChangeRelay, {
          send: (change: SecretChange) =>
            broadcast.send({ kind: "connection.secret-changed", beingId: change.beingId, provider: change.provider }),
          heard: Effect.gen(function* () {
            const heard = yield* Queue.unbounded<SecretChange | null>()
            const incoming = yield* broadcast.subscribe
            yield* Effect.forkScoped(
              Effect.forever(
                Effect.flatMap(Queue.take(incoming), (body) => {
                  if (body.kind === "connection.secret-changed")
                    return Queue.offer(heard, { beingId: body.beingId, provider: body.provider })
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

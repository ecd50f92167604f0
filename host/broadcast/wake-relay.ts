/**
 * The timers' wake-ups across processes (kernel/actors/wakes.ts): a `wake` naming the timer on
 * the broadcast channel, heard by every other process; the one running the timer takes it.
 * Sent on the waker's fiber, so a wake raised inside a transaction is delivered at its commit,
 * when what it announces is there to be read. Bound only on PostgreSQL (Wakes reads it as an
 * option, so its type provides nothing).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { WakeRelay } from "../../kernel/actors/wakes.ts"
import { Broadcast } from "../../kernel/broadcast.ts"
import { BroadcastLive } from "./broadcast.ts"

export const WakeRelayLive: Layer.Layer<never, never, SqlClient.SqlClient> = Layer.unwrapEffect(
  Effect.map(Broadcast, (broadcast) =>
    broadcast.active
      ? Layer.succeed(WakeRelay, {
          send: (name: string) => broadcast.send({ kind: "wake", timer: name }),
          heard: Effect.gen(function* () {
            const heard = yield* Queue.unbounded<string>()
            const incoming = yield* broadcast.subscribe
            yield* Effect.forkScoped(
              Effect.forever(
                Effect.flatMap(Queue.take(incoming), (body) =>
                  body.kind === "wake" ? Queue.offer(heard, body.timer) : Effect.void
                )
              )
            )
            return heard
          })
        })
      : Layer.empty
  )
).pipe(Layer.provide(BroadcastLive))

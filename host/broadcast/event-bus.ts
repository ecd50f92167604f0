/**
 * The node's event bus when several processes may share its database: every event is published
 * on this process's bus and sent to the others (broadcast.ts), and events other processes sent
 * are published on this one's, once. On SQLite it is the plain bus (host/events.ts).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import type { Audience, BusEvent } from "../../kernel/contract/events.ts"
import { EventBus, makeEventBus } from "../../kernel/events.ts"
import { Broadcast } from "../../kernel/broadcast.ts"
import { BroadcastLive } from "./broadcast.ts"
import type { BroadcastBody } from "./messages.ts"

export const SharedEventBusLive = Layer.scoped(
  EventBus,
  Effect.gen(function* () {
    const bus = yield* makeEventBus<Audience, BusEvent>()
    const broadcast = yield* Broadcast
    if (!broadcast.active) return bus

    // One sender in publishing order, so a streaming reply's deltas arrive in order, and a
    // publisher never waits for the database.
    const outgoing = yield* Queue.unbounded<BroadcastBody>()
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(outgoing), broadcast.send)))

    const incoming = yield* broadcast.subscribe
    yield* Effect.forkScoped(
      Effect.forever(
        Effect.flatMap(Queue.take(incoming), (body) =>
          body.kind === "event" ? bus.publish(body.audience, body.event) : Effect.void
        )
      )
    )

    return {
      publish: (audience: Audience, event: BusEvent) =>
        Effect.zipRight(bus.publish(audience, event), Queue.offer(outgoing, { kind: "event", audience, event })),
      subscribe: bus.subscribe,
      listen: bus.listen
    }
  })
).pipe(Layer.provide(BroadcastLive))

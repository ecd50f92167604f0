/**
 * Wake-ups of the node's timers (courier, scheduler...): a request that queued work for a timer
 * wakes it rather than leaving the work to its next period. A timer is a cluster singleton
 * (singletons.ts), so it may run in another process than the request: `wake(name)` wakes the
 * timer here and, through the `WakeRelay` the host binds on PostgreSQL (host/broadcast), in every
 * other process; the one running the timer takes it. Without a relay (SQLite, a service test) a
 * wake stays in this process, where the timer runs.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"

export interface WakeRelayShape {
  /** Tells the other processes; on the caller's fiber, so a wake sent in a transaction arrives at its commit. */
  readonly send: (name: string) => Effect.Effect<void>
  /** The names other processes woke, from the moment of subscribing. */
  readonly heard: Effect.Effect<Queue.Dequeue<string>, never, Scope.Scope>
}

export class WakeRelay extends Context.Tag("kernel/WakeRelay")<WakeRelay, WakeRelayShape>() {}

export class Wakes extends Effect.Service<Wakes>()("kernel/Wakes", {
  scoped: Effect.gen(function* () {
    /** Per timer, wake-ups not yet taken: one is as good as many. */
    const queues = new Map<string, Queue.Queue<void>>()
    /** The timer's queue, made on first use; should two fibers make one at once, the first kept wins. */
    const queueOf = (name: string): Effect.Effect<Queue.Queue<void>> =>
      Effect.suspend(() => {
        const known = queues.get(name)
        if (known !== undefined) return Effect.succeed(known)
        return Effect.map(Queue.sliding<void>(1), (made) => {
          if (!queues.has(name)) queues.set(name, made)
          return queues.get(name)!
        })
      })
    const here = (name: string) =>
      Effect.asVoid(Effect.flatMap(queueOf(name), (queue) => Queue.offer(queue, undefined)))

    const relay = yield* Effect.serviceOption(WakeRelay)
    if (Option.isSome(relay)) {
      const heard = yield* relay.value.heard
      yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(heard), here)))
    }

    return {
      /** Wakes the timer `name` wherever it runs. */
      wake: (name: string) => (Option.isSome(relay) ? Effect.zipRight(here(name), relay.value.send(name)) : here(name)),
      /** Waits for the next wake-up of the timer `name`. */
      woken: (name: string) => Effect.flatMap(queueOf(name), Queue.take)
    } as const
  })
}) {}

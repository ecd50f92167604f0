/**
 * The node's timers as cluster singletons: every feature declares its background loop (the
 * reflection rounds, the courier, the scheduler...) with `runSingleton(name, loop)`, and the loop
 * runs once across the cluster rather than once per process. On the node, `actorsLayer` provides
 * `clusterSingletons`, which registers the loop with `Sharding` under its name: the runner that
 * holds the name's shard runs it, and when that runner dies the shard, and the loop, move to
 * another. On one runner every shard is local, so the loop runs exactly as a forked fiber did.
 *
 * Without a cluster (a service test over a bare database, on the TestClock, where a cluster's
 * own timers would hang) the reference's default forks the loop in the caller's scope, which is
 * what every loop did before.
 */
import * as Sharding from "@effect/cluster/Sharding"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"

export interface SingletonsShape {
  /** Where the loop runs: only in the process that holds its name (true), or here (false). */
  readonly clustered: boolean
  /**
   * Starts `loop` under `name` for as long as the caller's scope is open. The loop's failures
   * are its own to log: a loop that ends or dies is not restarted until its shard moves.
   */
  readonly run: (name: string, loop: Effect.Effect<void>) => Effect.Effect<void, never, Scope.Scope>
}

const local: SingletonsShape = {
  clustered: false,
  run: (_name, loop) => Effect.asVoid(Effect.forkScoped(loop))
}

export class Singletons extends Context.Reference<Singletons>()("kernel/Singletons", {
  defaultValue: (): SingletonsShape => local
}) {}

/** The singletons of a node with a cluster: each loop is registered with the node's `Sharding`. */
export const clusterSingletons: Layer.Layer<Singletons, never, Sharding.Sharding> = Layer.effect(
  Singletons,
  Effect.map(
    Sharding.Sharding,
    (sharding): SingletonsShape => ({
      clustered: true,
      run: (name, loop) => sharding.registerSingleton(name, loop)
    })
  )
)

export interface SingletonOptions {
  /**
   * Repeats `loop` on this schedule, each failure logged and the next run kept; without it `loop` is the whole loop.
   */
  readonly schedule?: Schedule.Schedule<unknown, unknown>
}

/**
 * Declares a feature's background loop: `name` names it across the cluster (never a secret in
 * it: it is logged and stored with the shard), `loop` is what runs.
 */
export const runSingleton = <E>(
  name: string,
  loop: Effect.Effect<unknown, E>,
  options: SingletonOptions = {}
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.flatMap(Singletons, (singletons) =>
    singletons.run(
      name,
      options.schedule === undefined
        ? Effect.asVoid(Effect.catchAllCause(loop, (cause) => Effect.logError(`The loop ${name} stopped`, cause)))
        : Effect.asVoid(
            Effect.repeat(
              Effect.catchAllCause(loop, (cause) => Effect.logError(`A run of ${name} failed`, cause)),
              options.schedule
            )
          )
    )
  )

/** `runSingleton` as a layer, for a loop declared beside its feature's services rather than inside one. */
export const singletonLayer = <E, R>(
  name: string,
  loop: Effect.Effect<unknown, E, R>,
  options: SingletonOptions = {}
): Layer.Layer<never, never, R> =>
  Layer.scopedDiscard(
    Effect.flatMap(Effect.context<R>(), (context) => runSingleton(name, Effect.provide(loop, context), options))
  )

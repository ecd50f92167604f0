/** What the cluster holds of the node's singletons (kernel/actors/singletons.ts), for tests. */
import * as Sharding from "@effect/cluster/Sharding"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"

/** Whether Sharding already holds a singleton of this name: registering it again is refused. */
export const registered = (name: string) =>
  Effect.flatMap(Sharding.Sharding, (sharding) =>
    Effect.scoped(Effect.exit(sharding.registerSingleton(name, Effect.void)))
  ).pipe(
    Effect.map(
      (exit) => Exit.isFailure(exit) && Cause.pretty(exit.cause).includes(`Singleton '${name}' is already registered`)
    )
  )

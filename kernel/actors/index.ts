/**
 * The kernel's actor runtime on @effect/cluster. An actor kind is an `Entity` whose protocol is
 * a set of `Rpc`s; see docs/actors.md.
 */
export { actorsLayer, nodeActorsLayer, socketRunnerLayer, type ActorRuntime } from "./actors-layer.ts"
export { entityLayer, type EntityKindOptions } from "./entity-layer.ts"
export { runNode, shutdownDeadline } from "./run-node.ts"
export { refusedWhenBusy } from "./busy.ts"
export { defaultMaxIdleTime, nodeShardingConfig, type ShardingConfigShape } from "./sharding-config.ts"
export {
  clusterSingletons,
  runSingleton,
  singletonLayer,
  Singletons,
  type SingletonOptions,
  type SingletonsShape
} from "./singletons.ts"

/**
 * The actor runtime of one machine: the pieces of `SingleRunner.layer` over the node's own
 * SqlClient, so the cluster's tables (`cluster_messages`, `cluster_replies`, `cluster_runners`,
 * `cluster_locks`, created by the storage layers themselves) live in the node's one database
 * file, backed up with everything else. Scaling out swaps this layer for socket runners over
 * PostgreSQL; entity code does not change.
 */
import * as MessageStorage from "@effect/cluster/MessageStorage"
import * as RunnerHealth from "@effect/cluster/RunnerHealth"
import * as Runners from "@effect/cluster/Runners"
import * as Sharding from "@effect/cluster/Sharding"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Layer from "effect/Layer"
import { clusterSingletons, type Singletons } from "./singletons.ts"
import { nodeShardingConfig, type ShardingConfigShape } from "./sharding-config.ts"

export type ActorRuntime = Sharding.Sharding | Runners.Runners | MessageStorage.MessageStorage | Singletons

/** `overrides` replace values of the node's sharding configuration (tests shorten intervals). */
export const actorsLayer = (
  overrides: Partial<ShardingConfigShape> = {}
): Layer.Layer<ActorRuntime, never, SqlClient.SqlClient> =>
  clusterSingletons.pipe(
    // Every loop a feature declares with runSingleton runs once across the cluster (./singletons.ts).
    Layer.provideMerge(Sharding.layer),
    Layer.provideMerge(Runners.layerNoop),
    Layer.provideMerge(SqlMessageStorage.layer),
    // Runner storage fails only when it cannot create its tables: the database is unusable and so is the node.
    Layer.provide([Layer.orDie(SqlRunnerStorage.layer), RunnerHealth.layerNoop]),
    Layer.provide(ShardingConfig.layer({ ...nodeShardingConfig, ...overrides }))
  )

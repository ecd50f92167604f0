/**
 * The actor runtime of one machine: the pieces of `SingleRunner.layer` over the node's own
 * SqlClient, so the cluster's tables (`cluster_messages`, `cluster_replies`, `cluster_runners`,
 * `cluster_locks`, created by the storage layers themselves) live in the node's one database
 * file, backed up with everything else. With CLUSTER_RUNNER_ADDRESS (and PostgreSQL, which the
 * settings require with it) the process is one socket runner of several over that same shared
 * database instead; entity code does not change.
 */
import type * as MessageStorage from "@effect/cluster/MessageStorage"
import * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as RunnerHealth from "@effect/cluster/RunnerHealth"
import * as Runners from "@effect/cluster/Runners"
import * as Sharding from "@effect/cluster/Sharding"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { Settings, type RunnerAddressSetting } from "../settings.ts"
import { mailboxDepthsLayer } from "./mailbox-depths.ts"
import { runnerLivenessLayer } from "./runner-liveness.ts"
import { clusterSingletons, type Singletons } from "./singletons.ts"
import { clusterShardingConfig, nodeShardingConfig, type ShardingConfigShape } from "./sharding-config.ts"

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

/**
 * The cluster's tables, created before the runner starts. The storage layers create them with
 * `CREATE TABLE IF NOT EXISTS`, which on PostgreSQL is not safe against itself: two runners
 * starting together on a fresh database can both try, and the loser fails on
 * `pg_type_typname_nsp_index` and stops. Building the storage once here, and again after such a
 * failure (by then the tables exist), leaves the runner's own build nothing to race on.
 */
const clusterTablesReady = (config: ShardingConfigShape): Layer.Layer<never, never, SqlClient.SqlClient> =>
  Layer.effectDiscard(
    Effect.scoped(
      Layer.build(
        Layer.merge(SqlMessageStorage.layer, SqlRunnerStorage.layer).pipe(Layer.provide(ShardingConfig.layer(config)))
      )
    ).pipe(
      Effect.sandbox,
      Effect.retry({ times: 5, schedule: Schedule.spaced(Duration.millis(250)) }),
      Effect.unsandbox,
      Effect.orDie
    )
  )

/**
 * One socket runner of a cluster listening at `address`: messages and runners in the shared SQL
 * database, msgpack between runners, a runner's health checked by pinging it. The whole sharding
 * configuration is given, so the library's reader of the environment (HOST, PORT) changes nothing.
 * A runner that cannot listen at its address cannot take part: the node stops saying why. The SQL
 * storage is the node's own ("byo" to the library, the same layers its "sql" builds), so the runner
 * and its liveness watch share one runner storage (which keeps a reserved connection for its life).
 */
export const socketRunnerLayer = (
  address: RunnerAddressSetting
): Layer.Layer<ActorRuntime, never, SqlClient.SqlClient> => {
  const config = clusterShardingConfig(RunnerAddress.make(address.host, address.port))
  const configLayer = ShardingConfig.layer(config)
  return clusterSingletons.pipe(
    Layer.provideMerge(
      NodeClusterSocket.layer({
        storage: "byo",
        serialization: "msgpack",
        runnerHealth: "ping",
        shardingConfig: config
      }).pipe(
        Layer.orDie,
        // The runner's liveness lock is held before it registers; the tables exist before either.
        Layer.provide(runnerLivenessLayer(config.runnerAddress.pipe(Option.getOrThrow))),
        Layer.provide(Layer.orDie(SqlRunnerStorage.layer).pipe(Layer.provide(configLayer))),
        Layer.provideMerge(SqlMessageStorage.layer.pipe(Layer.provide(configLayer))),
        Layer.provide(clusterTablesReady(config))
      )
    )
  )
}

/**
 * The node's runtime: a socket runner when CLUSTER_RUNNER_ADDRESS is set, else the one-process runner; with the
 * mailboxes' depths among the node's metrics.
 */
export const nodeActorsLayer: Layer.Layer<ActorRuntime, never, SqlClient.SqlClient | Settings> = Layer.unwrapEffect(
  Effect.map(Settings, (settings) =>
    Option.match(settings.clusterRunnerAddress, { onNone: () => actorsLayer(), onSome: socketRunnerLayer })
  )
).pipe(Layer.merge(mailboxDepthsLayer))

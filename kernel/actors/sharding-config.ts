/**
 * The node's sharding configuration: the library defaults, tuned for one machine that must stop
 * within five seconds of a SIGTERM. Values are explicit here rather than read from the
 * environment, because the library's reader takes `HOST` and `PORT`, which belong to the
 * HTTP server.
 */
import type * as RunnerAddress from "@effect/cluster/RunnerAddress"
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"

export type ShardingConfigShape = ShardingConfig.ShardingConfig["Type"]

/** How long an entity may sit without a message before it is passivated, unless its kind says otherwise. */
export const defaultMaxIdleTime = Duration.minutes(5)

/**
 * How long shutdown waits for an entity's in-flight messages to finish. A persisted message
 * cut off here is redelivered at the next start, so the budget only has to leave room for the
 * rest of the shutdown inside five seconds.
 */
export const entityTerminationTimeout = Duration.seconds(2)

export const nodeShardingConfig: ShardingConfigShape = {
  ...ShardingConfig.defaults,
  entityMaxIdleTime: defaultMaxIdleTime,
  entityTerminationTimeout,
  // The storage poll picks up messages left by a crash (acquiring the shards at boot reads them
  // at once) and those scheduled with DeliverAt (the node schedules none); a local send does not
  // wait for it. Each poll also walks every shard's lock state, a few hundred KB of allocation:
  // at one second an idle node allocated ~3 MB/s, so its young generation grew back to its
  // ceiling after the start's collection and stayed there. The library's default, ten seconds.
  entityMessagePollInterval: Duration.seconds(10),
  // A message sent while the shards are still being acquired at boot retries at this pace.
  sendRetryInterval: Duration.millis(20)
}

/**
 * One runner of several (CLUSTER_RUNNER_ADDRESS): the node's values, plus how fast a dead runner's
 * shards move. A killed runner's connection, and with it its liveness lock, is gone at once: every
 * runner looks for that twice a second and marks it unhealthy (./runner-liveness.ts), and the
 * assignment, refreshed every second, moves its shards; on PostgreSQL its shard locks are advisory
 * locks its closed connection already gave back. The backstops: a heartbeat older than
 * `shardLockExpiration`, and the health check (a ping, a singleton). The library's 10 s heartbeat
 * and 35 s expiry would leave a killed runner's entities unanswered for up to ~40 s.
 */
export const clusterShardingConfig = (runnerAddress: RunnerAddress.RunnerAddress): ShardingConfigShape => ({
  ...nodeShardingConfig,
  runnerAddress: Option.some(runnerAddress),
  runnerListenAddress: Option.none(),
  shardLockRefreshInterval: Duration.seconds(2),
  shardLockExpiration: Duration.seconds(8),
  runnerHealthCheckInterval: Duration.seconds(5),
  // One small read of the runners' table a second per runner: a dead runner's shards move within about a second of
  // its being marked.
  refreshAssignmentsInterval: Duration.seconds(1)
})

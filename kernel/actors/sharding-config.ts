/**
 * The node's sharding configuration: the library defaults, tuned for one machine that must stop
 * within five seconds of a SIGTERM. Values are explicit here rather than read from the
 * environment, because the library's reader takes `HOST` and `PORT`, which belong to the
 * HTTP server.
 */
import * as ShardingConfig from "@effect/cluster/ShardingConfig"
import * as Duration from "effect/Duration"

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
  // The storage poll picks up messages scheduled with DeliverAt and those left by a crash;
  // a local send does not wait for it. One second is the precision of a scheduled message.
  entityMessagePollInterval: Duration.seconds(1),
  // A message sent while the shards are still being acquired at boot retries at this pace.
  sendRetryInterval: Duration.millis(20)
}

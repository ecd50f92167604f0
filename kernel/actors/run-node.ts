/**
 * Runs the node's layer until SIGTERM or SIGINT, then releases it: entities stop (persisted
 * messages still in flight are redelivered at the next start), finalizers run, and the
 * process exits 0. A supervisor waits only so long before it sends SIGKILL, so a finalizer
 * that hangs must not keep the node alive: past the deadline the process exits 1.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Duration from "effect/Duration"
import * as Layer from "effect/Layer"

/** Below the five seconds a supervisor commonly allows between SIGTERM and SIGKILL. */
export const shutdownDeadline = Duration.seconds(4)

export const runNode = <E>(
  layer: Layer.Layer<never, E, never>,
  options: { readonly deadline?: Duration.DurationInput } = {}
): void => {
  const deadline = Duration.toMillis(options.deadline ?? shutdownDeadline)
  const armDeadline = () => {
    // A second signal then meets no listener and ends the process at once, as an impatient operator expects.
    process.removeListener("SIGTERM", armDeadline)
    process.removeListener("SIGINT", armDeadline)
    // unref'd: a shutdown that finishes in time exits at once instead of waiting on this timer
    setTimeout(() => {
      process.stderr.write(`shutdown did not finish within ${deadline} ms; exiting\n`)
      process.exit(1)
    }, deadline).unref()
  }
  process.on("SIGTERM", armDeadline)
  process.on("SIGINT", armDeadline)
  NodeRuntime.runMain(Layer.launch(layer))
}

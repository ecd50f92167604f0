/**
 * A node started by host/start.ts can be stopped and started again inside its process: its scope closes (server,
 * database, actors), one step runs while nothing holds the data folder (a restore moving folders), and the node's
 * layer is built again on the same port. A node built any other way (a test's, a cluster runner's) has no
 * NodeRelaunch below it: read it with `Effect.serviceOption`.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/**
 * What runs while the node is stopped. Its success is a line for the log and, when what it did can be taken back,
 * `undo`: run (with the node stopped again) should the node then fail to start; its failure says why it did not.
 */
export type StoppedStep = Effect.Effect<
  { readonly line: string; readonly undo: Effect.Effect<string, Error> | null },
  Error
>

export interface NodeRelaunchShape {
  /**
   * Asks for the relaunch: the node stops soon after (once the current response is sent), runs `step`, and starts
   * again whatever the step's outcome (on the undone step if the node does not start after it). False when a relaunch was asked for already (the first one wins).
   */
  readonly relaunch: (step: StoppedStep) => Effect.Effect<boolean>
}

export class NodeRelaunch extends Context.Tag("kernel/NodeRelaunch")<NodeRelaunch, NodeRelaunchShape>() {}

/**
 * The project actor's messages. One entity per project (its id is the project's id).
 *
 * `Run` is persisted with the key `<projectId>:<runNumber>`: a run the node was killed in the
 * middle of is delivered again at the next start and continues from its checkpoints, and a resume
 * is a new run number, so it is a new message rather than the stored reply of the old one.
 * `Cancel` and `StepFinished` are volatile: it stops the run in this process; the cancelled status in the database is
 * what stops a redelivered run after a restart.
 */
import * as ClusterSchema from "@effect/cluster/ClusterSchema"
import * as Entity from "@effect/cluster/Entity"
import * as Rpc from "@effect/rpc/Rpc"
import * as Schema from "effect/Schema"

export const ProjectActor = Entity.make("Project", [
  Rpc.make("Run", {
    payload: { projectId: Schema.String, runNumber: Schema.Int },
    primaryKey: ({ projectId, runNumber }) => `${projectId}:${runNumber}`
  }).annotate(ClusterSchema.Persisted, true),
  /** True when a run was going in this process and was stopped. */
  Rpc.make("Cancel", { success: Schema.Boolean }),
  /** A person handed in their step (its row is written): the run waiting on it goes on. Volatile like Cancel. */
  Rpc.make("StepFinished", { payload: { taskId: Schema.String }, success: Schema.Boolean }),
  /** The plan was edited: a run waiting on its steps reads the stored plan now. Volatile like Cancel. */
  Rpc.make("PlanEdited")
])

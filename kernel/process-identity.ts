/**
 * The node's process identity: one random id per process start (per node layer built), so what a
 * process holds in the shared database (its sockets' presence rows, its liveness lease) can be
 * told from another process's, and dropped when that process is gone. Random, not the pid:
 * processes on two machines can share a pid, and a restarted process is a new holder.
 */
import * as Effect from "effect/Effect"
import { randomUUID } from "node:crypto"

export class ProcessIdentity extends Effect.Service<ProcessIdentity>()("kernel/ProcessIdentity", {
  sync: () => ({ id: randomUUID() })
}) {}

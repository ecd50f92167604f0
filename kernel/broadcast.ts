/**
 * The broadcast channel between the processes that share one database, as features see it: send a
 * message to every other process, hear theirs. Its messages are typed by the registry of
 * kernel/contract/broadcast.ts; the channel itself (PostgreSQL LISTEN/NOTIFY, nothing on SQLite) is
 * the host's (host/broadcast/broadcast.ts).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { BroadcastMessage } from "./contract/broadcast.ts"

export interface BroadcastShape<M> {
  /** False on SQLite: there is no other process to tell. */
  readonly active: boolean
  readonly send: (body: M) => Effect.Effect<void>
  /** What other processes send, from the moment of subscribing. */
  readonly subscribe: Effect.Effect<Queue.Dequeue<M>, never, Scope.Scope>
}

/** One process alone (SQLite, or a service built outside the node): nothing to tell, nothing heard. */
const alone: BroadcastShape<BroadcastMessage> = {
  active: false,
  send: () => Effect.void,
  subscribe: Effect.acquireRelease(Queue.unbounded<BroadcastMessage>(), Queue.shutdown)
}

/**
 * A reference, so a service built outside the node (a unit test's layer) needs no binding and is
 * alone, as on SQLite; the node binds the host's channel once, below every feature (host/node.ts).
 */
export class Broadcast extends Context.Reference<Broadcast>()("kernel/Broadcast", {
  defaultValue: (): BroadcastShape<BroadcastMessage> => alone
}) {}

/**
 * Registers an entity kind with the kernel's defect policy and passivation default.
 *
 * Left to itself, the cluster treats a defect as fatal to the entity: it rebuilds the entity
 * and replays the message, forever, and the replay loop holds up shutdown. Here a defect is
 * the answer to the one message that caused it, and the entity keeps its state:
 * - a handler that dies (or throws before returning an effect) fails that message with the
 *   defect; a persisted message gets the defect as its stored reply and is not redelivered;
 * - an entity whose construction dies answers each message with that defect until it is
 *   passivated, and the next message after that builds it afresh.
 */
import type * as Entity from "@effect/cluster/Entity"
import type * as Rpc from "@effect/rpc/Rpc"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import type * as Duration from "effect/Duration"

export interface EntityKindOptions {
  /** Idle time before the entity is passivated; else the runtime's `entityMaxIdleTime` (five minutes). */
  readonly maxIdleTime?: Duration.DurationInput
  /** Messages one entity processes at once; 1 (one after another) unless the kind says otherwise. */
  readonly concurrency?: number | "unbounded"
  /** Messages one entity may hold in flight before senders get MailboxFull. */
  readonly mailboxCapacity?: number | "unbounded"
}

type AnyHandler = (request: unknown) => unknown

const guardHandlers = <Handlers>(handlers: Handlers): Handlers => {
  const guarded: Record<string, AnyHandler> = {}
  for (const [tag, handler] of Object.entries(handlers as Record<string, AnyHandler>)) {
    guarded[tag] = (request) => {
      try {
        return handler(request)
      } catch (defect) {
        return Effect.die(defect)
      }
    }
  }
  return guarded as Handlers
}

const handlersThatDie = <Handlers>(tags: Iterable<string>, defect: unknown): Handlers => {
  const handlers: Record<string, AnyHandler> = {}
  for (const tag of tags) handlers[tag] = () => Effect.die(defect)
  return handlers as Handlers
}

/**
 * The layer that runs `entity` on this node; `build` makes one entity's handlers and runs once
 * per activation, in the entity's scope (so its finalizers run at passivation and shutdown).
 */
export const entityLayer = <
  Type extends string,
  Rpcs extends Rpc.Any,
  Handlers extends Entity.HandlersFrom<Rpcs>,
  RX = never
>(
  entity: Entity.Entity<Type, Rpcs>,
  build: Handlers | Effect.Effect<Handlers, never, RX>,
  options: EntityKindOptions = {}
) => {
  const guardedBuild: Effect.Effect<Handlers, never, RX> = (
    Effect.isEffect(build) ? build : Effect.succeed(build)
  ).pipe(
    Effect.map(guardHandlers),
    Effect.catchAllDefect((defect) =>
      Effect.logError(
        `Entity ${entity.type} could not start; its messages fail until it is passivated`,
        Cause.die(defect)
      ).pipe(Effect.as(handlersThatDie<Handlers>(entity.protocol.requests.keys(), defect)))
    )
  )
  return entity.toLayer<Handlers, RX>(guardedBuild, {
    maxIdleTime: options.maxIdleTime,
    concurrency: options.concurrency,
    mailboxCapacity: options.mailboxCapacity,
    disableFatalDefects: true
  })
}

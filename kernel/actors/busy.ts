/**
 * What a sender tells its caller when an actor cannot take a message: a full mailbox is the node
 * being busy (503 `busy`, try again); a message already in flight or storage failing are defects.
 */
import * as Effect from "effect/Effect"
import { ActorBusy } from "../contract/actor-errors.ts"

/** `what` names the actor in the refusal: "This desktop", "This peer". */
export const refusedWhenBusy =
  (what: string) =>
  <A, E, R>(self: Effect.Effect<A, E, R>) =>
    self.pipe(
      Effect.catchTags({
        MailboxFull: () => Effect.fail(new ActorBusy({ message: `${what} is busy; try again in a moment.` })),
        AlreadyProcessingMessage: Effect.die,
        PersistenceError: Effect.die
      })
    )

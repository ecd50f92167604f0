/** Owner-only routes answer 403 to anyone else; the owner flag comes from the session. */
import * as Effect from "effect/Effect"
import { OwnerOnly } from "./errors.ts"
import { CurrentSession } from "./session.ts"

export const requireOwner = Effect.flatMap(CurrentSession, (session) =>
  session.isOwner
    ? Effect.succeed(session)
    : Effect.fail(new OwnerOnly({ message: "Only the owner of this node can do this." }))
)

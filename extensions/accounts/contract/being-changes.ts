/**
 * Told of every write to a `beings` row, once the statement ran: the session cache
 * (extensions/accounts/session-cache.ts) then forgets the sessions it kept of that being, so a signed-in
 * request never sees a being as it was before (a name, a suspension, a confirmed address, a
 * deleted being's cascaded sessions). EVERY writer of `beings` calls it: the accounts'
 * repository (extensions/accounts/repositories/beings.ts) and the agents' (extensions/agents).
 *
 * A reference, so a repository built outside the node (a unit test's layer) needs no binding;
 * the node binds it in host/node.ts, and the accounts' repository wires it itself.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

export interface BeingChangesShape {
  readonly changed: (beingId: string) => Effect.Effect<void>
}

export class BeingChanges extends Context.Reference<BeingChanges>()("auth/BeingChanges", {
  defaultValue: (): BeingChangesShape => ({ changed: () => Effect.void })
}) {}

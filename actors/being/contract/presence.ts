/**
 * Who is online, node-wide (a socket open on any process), for features that show or count it:
 * the beings' list, the Muse's presence while it replies, /api/health. The being actor keeps the
 * rows (actors/being/being-sockets-repository.ts); this tag reads them.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface PresenceShape {
  /** The beings with a socket open on any process of the node. */
  readonly onlineIds: Effect.Effect<ReadonlySet<string>>
  /** Whether the being has a socket open on any process of the node. */
  readonly isOnline: (beingId: string) => Effect.Effect<boolean>
  /** How many beings are online node-wide. */
  readonly onlineBeings: Effect.Effect<number>
}

export class Presence extends Context.Tag("being/Presence")<Presence, PresenceShape>() {}

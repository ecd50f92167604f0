/**
 * What the agents need from a feature they do not own: the rows of `beings` that wear the cards.
 * Only the beings repository (extensions/accounts/repositories/beings.ts) writes `beings`, so the session
 * cache hears of every write; the host binds this port to it (extensions/agents/agent-beings.ts). Each
 * call runs inside the caller's transaction.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface AgentBeingsShape {
  /** Raises a being of kind 'agent': no email, no password, so it never signs in. */
  readonly raise: (being: {
    readonly id: string
    readonly handle: string
    readonly displayName: string
    readonly createdAt: string
  }) => Effect.Effect<void>
  /** Names an agent being after the one card it wears. */
  readonly rename: (being: { readonly id: string; readonly displayName: string }) => Effect.Effect<void>
  /** Deletes an agent being that wears no card any more. */
  readonly release: (id: string) => Effect.Effect<void>
}

export class AgentBeings extends Context.Tag("agents/AgentBeings")<AgentBeings, AgentBeingsShape>() {}

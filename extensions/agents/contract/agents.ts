/**
 * The Agents service as other features call it (the studio's `storage` adapter, the project
 * actor's team, the market's copies); extensions/agents/agents.ts provides it. Its refusals are
 * the feature's own (./errors.ts); a storage fault is a defect.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { AgentNotFound, AgentNotYours, AgentPrivate, AgentSkillUnknown } from "./errors.ts"
import type { Agent, AgentInput, AgentPatch, AgentSummary } from "./agent.ts"

export interface AgentsShape {
  /** The caller's own cards and everyone's public ones, newest first. */
  readonly list: (callerId: string) => Effect.Effect<ReadonlyArray<AgentSummary>>
  readonly get: (callerId: string, id: string) => Effect.Effect<Agent, AgentNotFound | AgentPrivate>
  /** Every card the owner saved, for team assembly. */
  readonly ownedBy: (ownerId: string) => Effect.Effect<ReadonlyArray<Agent>>
  /** Writes the card, worn by the caller's being of its persona; an unregistered skill refuses it. */
  readonly create: (callerId: string, input: AgentInput) => Effect.Effect<Agent, AgentSkillUnknown>
  readonly update: (
    callerId: string,
    id: string,
    patch: AgentPatch
  ) => Effect.Effect<Agent, AgentNotFound | AgentNotYours | AgentSkillUnknown>
  readonly remove: (callerId: string, id: string) => Effect.Effect<void, AgentNotFound | AgentNotYours>
  /** The names of every skill registered on the node. */
  readonly registered: Effect.Effect<ReadonlySet<string>>
  /** A card as stored (its chosen skills only), whoever owns it: the market checks the seller itself. */
  readonly stored: (id: string) => Effect.Effect<Option.Option<Agent>>
}

export class Agents extends Context.Tag("agents/Agents")<Agents, AgentsShape>() {}

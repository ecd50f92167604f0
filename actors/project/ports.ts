/**
 * What a project run needs from features it does not own, as tags the actor declares and the
 * host binds (actors/project/port-bindings.ts): the generators it runs and the saved agents it
 * staffs a team with. The actor so imports no extension, only their contracts.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Caller } from "../../extensions/accounts/contract/session.ts"
import type { Agent } from "../../extensions/agents/contract/agent.ts"
import type {
  GeneratorInvalid,
  GeneratorNotFound,
  GeneratorPrivate
} from "../../extensions/generators/contract/errors.ts"
import type { Generator } from "../../extensions/generators/contract/generator.ts"
import type { Seat } from "../../extensions/groups/contract/records.ts"

/** Inputs checked against a generator's form: filled with the form's defaults, or the issues found. */
export type CheckedInputs =
  | { readonly ok: true; readonly inputs: Record<string, unknown> }
  | { readonly ok: false; readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }> }

export class RunnableGenerators extends Context.Tag("actors/project/RunnableGenerators")<
  RunnableGenerators,
  {
    /** By id or slug, if the caller may see it. */
    readonly find: (caller: Caller, idOrSlug: string) => Effect.Effect<Generator, GeneratorNotFound | GeneratorPrivate>
    /** The spec's validation against the skills the node has, before every run. */
    readonly check: (generator: Generator) => Effect.Effect<void, GeneratorInvalid>
    readonly checkInputs: (generator: Generator, inputs: unknown) => CheckedInputs
  }
>() {}

/** The project's crew as the run reads it: its seats, and when the binding last changed. */
export interface CrewBinding {
  readonly changedAt: string
  readonly seats: ReadonlyArray<Seat>
}

export class CrewSeats extends Context.Tag("actors/project/CrewSeats")<
  CrewSeats,
  {
    /** Null when no crew was ever bound to the project. */
    readonly forProject: (projectId: string) => Effect.Effect<CrewBinding | null>
  }
>() {}

export class SavedAgents extends Context.Tag("actors/project/SavedAgents")<
  SavedAgents,
  {
    /** The owner's saved agents, newest first. */
    readonly ownedBy: (ownerId: string) => Effect.Effect<ReadonlyArray<Agent>>
    /** The names of every skill registered on the node. */
    readonly registeredSkills: Effect.Effect<ReadonlySet<string>>
  }
>() {}

/** What an ephemeral agent needs to wear a soul: who it is and the job of its role. */
export interface AgentSoulRequest {
  /** The same seed gives the same soul: the project and the role. */
  readonly seed: string
  readonly name: string
  readonly role: string
  readonly job: string
}

export class AgentSouls extends Context.Tag("actors/project/AgentSouls")<
  AgentSouls,
  {
    /** The system prompt of a soul generated from the seed, compiled in agent mode; no model is called. */
    readonly promptFor: (request: AgentSoulRequest) => string
  }
>() {}

/**
 * The project actor's ports bound to the generators, agents, souls and groups extensions, each bringing its service.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AgentSouls, CrewSeats, RunnableGenerators, SavedAgents } from "./ports.ts"
import { CrewSeating } from "../../extensions/groups/contract/crew-seating.ts"
import { Agents } from "../../extensions/agents/contract/agents.ts"
import { Generators } from "../../extensions/generators/contract/generators.ts"
import { SoulService } from "../../extensions/souls/contract/soul-service.ts"

export const RunnableGeneratorsLive = Layer.effect(
  RunnableGenerators,
  Effect.map(Generators, (generators) => ({
    find: generators.find,
    check: generators.check,
    checkInputs: generators.checkInputs
  }))
)

export const SavedAgentsLive = Layer.effect(
  SavedAgents,
  Effect.map(Agents, (agents) => ({ ownedBy: agents.ownedBy, registeredSkills: agents.registered }))
)

/** The souls engine's generate and compile, pure: an ephemeral agent's soul is never stored. */
export const AgentSoulsLive = Layer.effect(
  AgentSouls,
  Effect.map(SoulService, (souls) => ({ promptFor: souls.agentPrompt }))
)

export const CrewSeatsLive = Layer.effect(
  CrewSeats,
  Effect.map(CrewSeating, (crews) => ({ forProject: crews.seatsFor }))
)

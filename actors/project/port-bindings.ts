/** The project actor's ports bound to the generators, agents, souls and groups extensions, each bringing its service. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AgentSouls, CrewSeats, RunnableGenerators, SavedAgents } from "./ports.ts"
import { Crews } from "../../extensions/groups/crews.ts"
import { Agents } from "../../extensions/agents/agents.ts"
import { Generators } from "../../extensions/generators/generators.ts"
import { checkInputs } from "../../extensions/generators/input-form.ts"
import { SoulService } from "../../extensions/souls/contract/soul-service.ts"

export const RunnableGeneratorsLive = Layer.effect(
  RunnableGenerators,
  Effect.map(Generators, (generators) => ({
    find: generators.find,
    check: generators.check,
    checkInputs: (generator, inputs) => checkInputs(generator.inputsSchema, inputs)
  }))
).pipe(Layer.provide(Generators.Default))

export const SavedAgentsLive = Layer.effect(
  SavedAgents,
  Effect.map(Agents, (agents) => ({ ownedBy: agents.ownedBy, registeredSkills: agents.registered }))
).pipe(Layer.provide(Agents.Default))

/** The souls engine's generate and compile, pure: an ephemeral agent's soul is never stored. */
export const AgentSoulsLive = Layer.effect(AgentSouls, Effect.map(SoulService, (souls) => ({ promptFor: souls.agentPrompt })))

export const CrewSeatsLive = Layer.effect(CrewSeats, Effect.map(Crews, (crews) => ({ forProject: crews.seatsFor }))).pipe(Layer.provide(Crews.Default))

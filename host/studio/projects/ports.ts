/** The project actor's ports bound to the generators and agents extensions, each bringing its service. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { RunnableGenerators, SavedAgents } from "../../../actors/project/ports.ts"
import { Agents } from "../../../extensions/agents/agents.ts"
import { Generators } from "../../../extensions/generators/generators.ts"
import { checkInputs } from "../../../extensions/generators/input-form.ts"

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

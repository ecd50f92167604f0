/** The agents as the node lists them: the saved agents over their port to the beings registry (it writes their beings). */
import * as Layer from "effect/Layer"
import { AgentBeingsLive } from "./agent-beings.ts"
import { AgentsLive } from "./agents.ts"

export const agentsFeature = AgentsLive.pipe(Layer.provide(AgentBeingsLive))

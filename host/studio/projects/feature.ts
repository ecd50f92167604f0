/** The project feature with its ports bound to the generators, agents, souls, crews, desktop signals and agent threads: what the node lists. */
import * as Layer from "effect/Layer"
import { ProjectFeature } from "../../../actors/project/layer.ts"
import { ProjectAlertsLive } from "./alerts.ts"
import { ProjectNotesLive } from "./notes.ts"
import { AgentSoulsLive, CrewSeatsLive, RunnableGeneratorsLive, SavedAgentsLive } from "./ports.ts"

export const projectsFeature = ProjectFeature.pipe(Layer.provide(Layer.mergeAll(RunnableGeneratorsLive, SavedAgentsLive, AgentSoulsLive, CrewSeatsLive, ProjectAlertsLive, ProjectNotesLive)))

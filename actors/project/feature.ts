/**
 * The project feature with its ports bound to the generators, agents, souls, crews, desktop signals and agent threads:
 * what the node lists.
 */
import * as Layer from "effect/Layer"
import { ProjectFeature } from "./layer.ts"
import { ProjectAlertsLive } from "./alert-signals.ts"
import { ProjectNotesLive } from "./notes-binding.ts"
import { AgentSoulsLive, CrewSeatsLive, RunnableGeneratorsLive, SavedAgentsLive } from "./port-bindings.ts"

export const projectsFeature = ProjectFeature.pipe(
  Layer.provide(
    Layer.mergeAll(
      RunnableGeneratorsLive,
      SavedAgentsLive,
      AgentSoulsLive,
      CrewSeatsLive,
      ProjectAlertsLive,
      ProjectNotesLive
    )
  )
)

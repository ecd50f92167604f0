/**
 * The project feature as the node lists it: its routes and the directory other features read projects through, over
 * one feature layer with its ports bound to the generators, agents, souls, crews, desktop signals and agent threads.
 */
import * as Layer from "effect/Layer"
import { ProjectFeature } from "./layer.ts"
import { ProjectDirectoryLive } from "./directory.ts"
import { StudioProjectsHandlers } from "./handlers.ts"
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

export const projectsRoutes = StudioProjectsHandlers.pipe(Layer.provide(projectsFeature))

export const projectsDirectory = ProjectDirectoryLive.pipe(Layer.provide(projectsFeature))

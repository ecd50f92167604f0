/**
 * The project's `ProjectWorkspaces` (contract/project-workspaces.ts) over its table and its store:
 * nothing of the run, so it stands low in the node, below the files feature that reads it.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Settings } from "../../kernel/settings.ts"
import { ProjectWorkspaces } from "./contract/project-workspaces.ts"
import { recordOutputs } from "./record-outputs.ts"
import { ProjectsRepository } from "./repositories/projects-repository.ts"
import { ProjectStore } from "./store.ts"

export const ProjectWorkspacesLive = Layer.effect(
  ProjectWorkspaces,
  Effect.gen(function* () {
    const projects = yield* ProjectsRepository
    const context = yield* Effect.context<ProjectStore | Settings>()
    return {
      ownerOf: (projectId) =>
        Effect.map(
          projects.findById(projectId),
          Option.map((project) => project.ownerId)
        ),
      ownedBy: (ownerId) => Effect.map(projects.idsByOwner(ownerId), (rows) => rows.map((project) => project.id)),
      recordOutputs: (projectId) => recordOutputs(projectId).pipe(Effect.provide(context))
    }
  })
).pipe(Layer.provide(Layer.mergeAll(ProjectStore.Default, ProjectsRepository.Default)))

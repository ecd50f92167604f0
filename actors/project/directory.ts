/** The project's `ProjectDirectory` (contract/project-directory.ts) over its service and its table (feature.ts binds it). */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { ProjectDirectory } from "./contract/project-directory.ts"
import { Projects } from "./projects.ts"
import { ProjectsRepository } from "./repositories/projects-repository.ts"

export const ProjectDirectoryLive = Layer.effect(
  ProjectDirectory,
  Effect.gen(function* () {
    const projects = yield* Projects
    const rows = yield* ProjectsRepository
    return {
      // A brief needs no generator, so nothing of the caller's can refuse it: a failure is a defect.
      createFromBrief: (caller, brief) => Effect.orDie(projects.create(caller, { brief })),
      search: projects.search,
      find: (projectId) =>
        Effect.map(
          rows.findById(projectId),
          Option.map(({ id, ownerId, title, brief }) => ({ id, ownerId, title, brief }))
        )
    }
  })
).pipe(Layer.provide(ProjectsRepository.Default))

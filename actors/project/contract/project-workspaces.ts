/**
 * A project's workspace as other features reach it: whose it is and which are a being's (the
 * files feature lists and searches them as the `project` scope), and its outputs recorded again
 * after something wrote there outside a run (the skills' approval gate: a call the run asked for,
 * carried out when the owner said "Do it"). Implemented in actors/project/workspaces.ts; the node
 * provides it.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"

export interface ProjectWorkspacesShape {
  /** The being that owns the project; None when there is no such project. */
  readonly ownerOf: (projectId: string) => Effect.Effect<Option.Option<string>>
  /** The ids of the being's projects, newest first. */
  readonly ownedBy: (ownerId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Lists the workspace again as the project's outputs (and traces it); nothing when there is no such project. */
  readonly recordOutputs: (projectId: string) => Effect.Effect<void>
}

export class ProjectWorkspaces extends Context.Tag("project/ProjectWorkspaces")<
  ProjectWorkspaces,
  ProjectWorkspacesShape
>() {}

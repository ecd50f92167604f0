/**
 * The studio's projects as other features call them: a buyer's project made from a listing's
 * brief (the market), the omnibar's search, and a project looked up by id (groups, the hush's
 * evidence). Implemented in actors/project/directory.ts; the node provides it.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Caller } from "../../../extensions/accounts/contract/session.ts"
import { Project } from "./records.ts"

/** A project as the omnibar lists it. */
export const ProjectHit = Project.pick("id", "title", "status")
export type ProjectHit = typeof ProjectHit.Type

/** What a lookup by id answers: whose the project is, and what it is about. */
export const ProjectSummary = Project.pick("id", "ownerId", "title", "brief")
export type ProjectSummary = typeof ProjectSummary.Type

export interface ProjectDirectoryShape {
  /** A new project of the caller's from a brief, its first run sent. */
  readonly createFromBrief: (caller: Caller, brief: string) => Effect.Effect<Project>
  /** The caller's projects whose title or brief holds every word (lower-cased), newest first, at most `limit`. */
  readonly search: (
    caller: Caller,
    words: ReadonlyArray<string>,
    limit: number
  ) => Effect.Effect<ReadonlyArray<ProjectHit>>
  /** The project with that id, whoever owns it. */
  readonly find: (projectId: string) => Effect.Effect<Option.Option<ProjectSummary>>
}

export class ProjectDirectory extends Context.Tag("project/ProjectDirectory")<
  ProjectDirectory,
  ProjectDirectoryShape
>() {}

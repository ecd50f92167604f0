/**
 * How a run tells its owner it failed: an 'alert' on their desktop from `studio:<projectId>`.
 * A tag here, implemented by the host over its one signal path, so the actor does not reach
 * into the host.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface ProjectAlert {
  readonly ownerId: string
  readonly projectId: string
  readonly title: string
  readonly body: string
}

export class ProjectAlerts extends Context.Tag("actors/ProjectAlerts")<
  ProjectAlerts,
  { readonly raise: (alert: ProjectAlert) => Effect.Effect<void> }
>() {}

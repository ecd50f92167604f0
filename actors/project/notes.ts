/**
 * How a run tells its owner what its agents are doing: a note in the project's agent thread (the
 * plan, each task finished or failed, the review's verdict, a call waiting for approval). Written
 * by the run's own steps, never by a model. A reference the host binds to its threads; its
 * default writes nowhere, so a run built without the host (unit tests) needs nothing for it. A
 * note that cannot be written is logged, never the run's failure.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

export interface ProjectNote {
  readonly ownerId: string
  readonly projectId: string
  readonly projectTitle: string
  readonly content: string
}

export interface ProjectNotesShape {
  readonly post: (note: ProjectNote) => Effect.Effect<void>
}

export class ProjectNotes extends Context.Reference<ProjectNotes>()("actors/ProjectNotes", {
  defaultValue: (): ProjectNotesShape => ({ post: () => Effect.void })
}) {}

const oneLine = (text: string, max: number) => {
  const line =
    text
      .split("\n")
      .map((part) => part.replace(/^[#>*\-\s]+/, "").trim())
      .find((part) => part !== "") ?? ""
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`
}

/** A one-line summary of what a task handed in: its first line of text, without Markdown marks. */
export const summaryOf = (text: string | null | undefined) => oneLine(text ?? "", 200)

/** Posts a note for the run; never fails it. */
export const note = (
  run: { readonly ownerId: string; readonly projectId: string; readonly title: string },
  content: string
) =>
  Effect.flatMap(ProjectNotes, (notes) =>
    notes.post({ ownerId: run.ownerId, projectId: run.projectId, projectTitle: run.title, content })
  ).pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("project: a note to the agent thread was not written", cause))
  )

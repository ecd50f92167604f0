/**
 * FileEntry.summary: a line saying what a file holds, written by whoever indexed it. Today that is
 * the twin's files provider, for files of the owner's folder it made memories of
 * (extensions/twin/file-summaries.ts binds this port); a file nobody indexed has none.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"

export interface FileSummariesShape {
  /** The summaries of those of `paths` (inside the owner's folder) that a being has indexed. */
  readonly of: (beingId: string, paths: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, string>>
}

export class FileSummaries extends Context.Reference<FileSummaries>()("files/FileSummaries", {
  defaultValue: (): FileSummariesShape => ({ of: () => Effect.succeed(new Map()) })
}) {}

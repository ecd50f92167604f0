/** FileEntry.summary for the owner's folder: the line the twin's files provider wrote when it indexed the file. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { IndexedFilesRepository } from "./repositories/indexed-files-repository.ts"
import { FileSummaries } from "../files/contract/file-summaries.ts"

export const FileSummariesLive = Layer.effect(
  FileSummaries,
  Effect.map(IndexedFilesRepository, (indexed) => ({
    of: (beingId: string, paths: ReadonlyArray<string>) =>
      Effect.map(indexed.summaries({ beingId, paths }), (rows) => new Map(rows.map((row) => [row.path, row.summary])))
  }))
).pipe(Layer.provide(IndexedFilesRepository.Default))

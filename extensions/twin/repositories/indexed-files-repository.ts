/**
 * The `twin_indexed_files` table: each file the files provider made memories of, by its path
 * inside FILES_ROOT, with what tells whether it changed since (size, mtime, content hash).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../../kernel/repository.ts"
import { beingCount } from "./count.ts"

export const IndexedFile = Schema.Struct({
  beingId: Schema.String,
  path: Schema.String,
  size: Schema.Number,
  mtime: Schema.String,
  hash: Schema.String,
  memoryIds: JsonColumn(Schema.Array(Schema.String)),
  summary: Schema.NullOr(Schema.String),
  indexedAt: Schema.String
})
export type IndexedFile = typeof IndexedFile.Type

const columns = `being_id AS "beingId", path, size, mtime, hash, memory_ids AS "memoryIds", summary, indexed_at AS "indexedAt"`

export class IndexedFilesRepository extends Effect.Service<IndexedFilesRepository>()("twin/IndexedFilesRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    const list = operation(
      "twin.listIndexedFiles",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: IndexedFile,
        execute: (beingId) => sql`SELECT ${all} FROM twin_indexed_files WHERE being_id = ${beingId}`
      })
    )

    const save = operation(
      "twin.saveIndexedFile",
      SqlSchema.void({
        Request: IndexedFile,
        execute: (row) => sql`INSERT INTO twin_indexed_files ${sql.insert({
          being_id: row.beingId,
          path: row.path,
          size: row.size,
          mtime: row.mtime,
          hash: row.hash,
          memory_ids: row.memoryIds,
          summary: row.summary,
          indexed_at: row.indexedAt
        })} ON CONFLICT (being_id, path) DO UPDATE SET size = excluded.size, mtime = excluded.mtime, hash = excluded.hash,
        memory_ids = excluded.memory_ids, summary = excluded.summary, indexed_at = excluded.indexed_at`
      })
    )

    const remove = operation(
      "twin.removeIndexedFile",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, path: Schema.String }),
        execute: ({ beingId, path }) =>
          sql`DELETE FROM twin_indexed_files WHERE being_id = ${beingId} AND path = ${path}`
      })
    )

    const summaries = operation(
      "twin.indexedFileSummaries",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, paths: Schema.Array(Schema.String) }),
        Result: Schema.Struct({ path: Schema.String, summary: Schema.String }),
        execute: ({ beingId, paths }) => sql`SELECT path, summary FROM twin_indexed_files
        WHERE being_id = ${beingId} AND summary IS NOT NULL AND ${sql.in("path", paths)}`
      })
    )

    const count = beingCount(
      "twin.countIndexedFiles",
      (beingId) => sql`SELECT COUNT(*) AS total FROM twin_indexed_files WHERE being_id = ${beingId}`
    )

    return { list, save, remove, summaries, count } as const
  })
}) {}

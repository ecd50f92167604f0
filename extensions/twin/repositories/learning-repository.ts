/**
 * The learning loop's tables: `twin_learning_queue` (the text each being's sources left for the
 * next pass, one row per message, mail or file version) and `twin_learning_sources` (the owner's
 * switch per source; no row reads as every source on).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, operation } from "../../../kernel/repository.ts"
import { LearningSource, LearningSources } from "../contract/learning.ts"
import { beingCount } from "./count.ts"

export const QueuedText = Schema.Struct({
  beingId: Schema.String,
  source: LearningSource,
  reference: Schema.String,
  text: Schema.String,
  enqueuedAt: Schema.String
})
export type QueuedText = typeof QueuedText.Type

const Pending = Schema.Struct({ reference: Schema.String, text: Schema.String, attempts: Schema.Number })
export type Pending = typeof Pending.Type

const Key = Schema.Struct({ beingId: Schema.String, source: LearningSource })
const Rows = Schema.Struct({ ...Key.fields, references: Schema.Array(Schema.String) })

const StoredSources = Schema.Struct({
  thread: BooleanColumn,
  chat: BooleanColumn,
  mail: BooleanColumn,
  file: BooleanColumn
})

export class LearningRepository extends Effect.Service<LearningRepository>()("twin/LearningRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** Queues the text unless the same reference waits already (then nothing changes). */
    const enqueue = operation(
      "twin.enqueueLearning",
      SqlSchema.void({
        Request: QueuedText,
        execute: (row) =>
          sql`INSERT INTO twin_learning_queue ${sql.insert({
            being_id: row.beingId,
            source: row.source,
            reference: row.reference,
            text: row.text,
            enqueued_at: row.enqueuedAt
          })} ON CONFLICT (being_id, source, reference) DO NOTHING`
      })
    )

    /** Each being and source with a row whose backoff (if any) is over by `now`. */
    const due = operation(
      "twin.dueLearning",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: Key,
        execute: (now) => sql`SELECT DISTINCT being_id AS "beingId", source FROM twin_learning_queue
        WHERE retry_at IS NULL OR retry_at <= ${now} ORDER BY being_id, source`
      })
    )

    /** The oldest due rows of one being's source, at most `limit`. */
    const pending = operation(
      "twin.pendingLearning",
      SqlSchema.findAll({
        Request: Schema.Struct({ ...Key.fields, now: Schema.String, limit: Schema.Number }),
        Result: Pending,
        execute: ({ beingId, source, now, limit }) => sql`SELECT reference, text, attempts FROM twin_learning_queue
        WHERE being_id = ${beingId} AND source = ${source} AND (retry_at IS NULL OR retry_at <= ${now})
        ORDER BY enqueued_at, reference LIMIT ${limit}`
      })
    )

    /** Rows a pass learned from (or gave up on). */
    const consume = operation(
      "twin.consumeLearning",
      SqlSchema.void({
        Request: Rows,
        execute: ({ beingId, source, references }) => sql`DELETE FROM twin_learning_queue
        WHERE being_id = ${beingId} AND source = ${source} AND ${sql.in("reference", references)}`
      })
    )

    /** Rows a failed pass leaves for later: one more attempt counted, not read again before `retryAt`. */
    const postpone = operation(
      "twin.postponeLearning",
      SqlSchema.void({
        Request: Schema.Struct({ ...Rows.fields, retryAt: Schema.String }),
        execute: ({ beingId, source, references, retryAt }) => sql`UPDATE twin_learning_queue
        SET attempts = attempts + 1, retry_at = ${retryAt}
        WHERE being_id = ${beingId} AND source = ${source} AND ${sql.in("reference", references)}`
      })
    )

    /** Everything one being's source left queued (the owner switched it off). */
    const drop = operation(
      "twin.dropLearning",
      SqlSchema.void({
        Request: Key,
        execute: ({ beingId, source }) =>
          sql`DELETE FROM twin_learning_queue WHERE being_id = ${beingId} AND source = ${source}`
      })
    )

    const count = beingCount(
      "twin.countLearning",
      (beingId) => sql`SELECT COUNT(*) AS total FROM twin_learning_queue WHERE being_id = ${beingId}`
    )

    const findSources = operation(
      "twin.findLearningSources",
      SqlSchema.findOne({
        Request: Schema.String,
        Result: StoredSources,
        execute: (beingId) =>
          sql`SELECT thread, chat, mail, file FROM twin_learning_sources WHERE being_id = ${beingId}`
      })
    )

    const saveSources = operation(
      "twin.saveLearningSources",
      SqlSchema.void({
        Request: Schema.Struct({ beingId: Schema.String, sources: LearningSources, updatedAt: Schema.String }),
        execute: ({ beingId, sources, updatedAt }) => {
          const bit = (on: boolean) => (on ? 1 : 0)
          return sql`INSERT INTO twin_learning_sources ${sql.insert({
            being_id: beingId,
            thread: bit(sources.thread),
            chat: bit(sources.chat),
            mail: bit(sources.mail),
            file: bit(sources.file),
            updated_at: updatedAt
          })} ON CONFLICT (being_id) DO UPDATE SET thread = excluded.thread, chat = excluded.chat, mail = excluded.mail,
          file = excluded.file, updated_at = excluded.updated_at`
        }
      })
    )

    return { enqueue, due, pending, consume, postpone, drop, count, findSources, saveSources } as const
  })
}) {}

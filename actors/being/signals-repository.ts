/**
 * The `signals` table. Writes are the being actor's (behaviour.ts); reads (the desktop's lists
 * and counts) may come from anywhere.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { JsonColumn, operation } from "../../kernel/repository.ts"
import { ActionResult, Signal, SignalAction, SignalOption, SignalStatus } from "./contract/signal.ts"

const SignalRow = Schema.Struct({
  ...Signal.fields,
  options: JsonColumn(Schema.Array(SignalOption)),
  action: Schema.NullOr(JsonColumn(SignalAction)),
  actionResult: Schema.NullOr(JsonColumn(ActionResult))
})

const columns = `id, being_id AS "beingId", kind, title, body, options, priority, due_at AS "dueAt", action, source,
  status, answer, action_result AS "actionResult", created_at AS "createdAt", updated_at AS "updatedAt", answered_at AS "answeredAt"`

/** Most pressing first: what the desktop's summary shows on top. */
const pressing = `CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END`

const Count = Schema.Struct({ n: Schema.Int })

export class SignalsRepository extends Effect.Service<SignalsRepository>()("being/SignalsRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const all = sql.literal(columns)

    /** The being's own signal, if it has one with that id. */
    const find = operation("signals.find", SqlSchema.findOne({
      Request: Schema.Struct({ beingId: Schema.String, signalId: Schema.String }),
      Result: SignalRow,
      execute: ({ beingId, signalId }) => sql`SELECT ${all} FROM signals WHERE id = ${signalId} AND being_id = ${beingId}`
    }))

    const insert = operation("signals.insert", SqlSchema.void({
      Request: SignalRow,
      execute: (signal) => sql`INSERT INTO signals ${sql.insert({
        id: signal.id,
        being_id: signal.beingId,
        kind: signal.kind,
        title: signal.title,
        body: signal.body,
        options: signal.options,
        priority: signal.priority,
        due_at: signal.dueAt,
        action: signal.action,
        source: signal.source,
        status: signal.status,
        answer: signal.answer,
        action_result: signal.actionResult,
        created_at: signal.createdAt,
        updated_at: signal.updatedAt,
        answered_at: signal.answeredAt
      })}`
    }))

    /** Flips an open signal to answered; None when it was not open any more. */
    const markAnswered = operation("signals.markAnswered", SqlSchema.findOne({
      Request: Schema.Struct({ signalId: Schema.String, optionId: Schema.String, now: Schema.String }),
      Result: SignalRow,
      execute: ({ signalId, optionId, now }) => sql`UPDATE signals
        SET status = 'answered', answer = ${optionId}, answered_at = ${now}, updated_at = ${now}
        WHERE id = ${signalId} AND status = 'open' RETURNING ${all}`
    }))

    const recordResult = operation("signals.recordResult", SqlSchema.void({
      Request: Schema.Struct({ signalId: Schema.String, result: JsonColumn(ActionResult) }),
      execute: ({ signalId, result }) => sql`UPDATE signals SET action_result = ${result} WHERE id = ${signalId}`
    }))

    /** Flips an open signal to dismissed; None when it was not open any more. */
    const markDismissed = operation("signals.markDismissed", SqlSchema.findOne({
      Request: Schema.Struct({ signalId: Schema.String, now: Schema.String }),
      Result: SignalRow,
      execute: ({ signalId, now }) => sql`UPDATE signals SET status = 'dismissed', updated_at = ${now}
        WHERE id = ${signalId} AND status = 'open' RETURNING ${all}`
    }))

    /**
     * A being's signals in one status, newest first. SQLite-only: `rowid` orders signals raised in
     * the same millisecond by when they were written.
     */
    const list = operation("signals.list", SqlSchema.findAll({
      Request: Schema.Struct({ beingId: Schema.String, status: SignalStatus, limit: Schema.Int }),
      Result: SignalRow,
      execute: ({ beingId, status, limit }) => sql`SELECT ${all} FROM signals WHERE being_id = ${beingId} AND status = ${status}
        ORDER BY created_at DESC, rowid DESC LIMIT ${limit}`
    }))

    const openCount = SqlSchema.findOne({
      Request: Schema.String,
      Result: Count,
      execute: (beingId) => sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM signals WHERE being_id = ${beingId} AND status = 'open'`
    })

    /** The most pressing open signals. SQLite-only: `rowid`, as in `list`. */
    const mostPressing = SqlSchema.findAll({
      Request: Schema.Struct({ beingId: Schema.String, top: Schema.Int }),
      Result: SignalRow,
      execute: ({ beingId, top }) => sql`SELECT ${all} FROM signals WHERE being_id = ${beingId} AND status = 'open'
        ORDER BY ${sql.literal(pressing)}, created_at DESC, rowid DESC LIMIT ${top}`
    })

    /** How many signals are open, and the most pressing few of them. */
    const openSummary = operation("signals.openSummary", (beingId: string, top: number) =>
      Effect.all({
        count: Effect.map(openCount(beingId), Option.match({ onNone: () => 0, onSome: ({ n }) => n })),
        top: mostPressing({ beingId, top })
      }))

    return { find, insert, markAnswered, recordResult, markDismissed, list, openSummary } as const
  })
}) {}

/**
 * The `signals` table. Writes are the being actor's (behaviour.ts); reads (the desktop's lists
 * and counts) may come from anywhere. A storage fault is a defect: nothing sensible can be
 * answered about a signal without its table.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomBytes } from "node:crypto"
import type { ActionResult, Signal, SignalInput, SignalStatus } from "./contract/signal.ts"

interface SignalRow {
  readonly id: string
  readonly beingId: string
  readonly kind: Signal["kind"]
  readonly title: string
  readonly body: string
  readonly options: string
  readonly priority: Signal["priority"]
  readonly dueAt: string | null
  readonly action: string | null
  readonly source: string
  readonly status: SignalStatus
  readonly answer: string | null
  readonly actionResult: string | null
  readonly createdAt: string
  readonly updatedAt: string
  readonly answeredAt: string | null
}

const columns = `id, being_id AS beingId, kind, title, body, options, priority, due_at AS dueAt, action, source,
  status, answer, action_result AS actionResult, created_at AS createdAt, updated_at AS updatedAt, answered_at AS answeredAt`

const toSignal = (row: SignalRow): Signal => ({
  ...row,
  options: JSON.parse(row.options),
  action: row.action === null ? null : JSON.parse(row.action),
  actionResult: row.actionResult === null ? null : JSON.parse(row.actionResult)
})

/** Most pressing first: what the desktop's summary shows on top. */
const pressing = `CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'normal' THEN 2 ELSE 3 END`

export const makeSignalStore = Effect.map(SqlClient.SqlClient, (sql) => {
  const find = (beingId: string, signalId: string) =>
    sql<SignalRow>`SELECT ${sql.literal(columns)} FROM signals WHERE id = ${signalId} AND being_id = ${beingId}`.pipe(
      Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toSignal)),
      Effect.orDie
    )

  const get = (signalId: string) =>
    sql<SignalRow>`SELECT ${sql.literal(columns)} FROM signals WHERE id = ${signalId}`.pipe(
      Effect.map((rows) => toSignal(rows[0])),
      Effect.orDie
    )

  const insert = (beingId: string, input: SignalInput, source: string, now: string) =>
    Effect.gen(function* () {
      const id = randomBytes(12).toString("base64url")
      yield* sql`INSERT INTO signals ${sql.insert({
        id,
        being_id: beingId,
        kind: input.kind,
        title: input.title,
        body: input.body,
        options: JSON.stringify(input.options),
        priority: input.priority,
        due_at: input.dueAt === null ? null : new Date(input.dueAt).toISOString(),
        action: input.action === null ? null : JSON.stringify(input.action),
        source,
        status: "open",
        answer: null,
        action_result: null,
        created_at: now,
        updated_at: now,
        answered_at: null
      })}`.pipe(Effect.orDie)
      return yield* get(id)
    })

  /** Flips an open signal to answered; false when it was not open any more. */
  const markAnswered = (signalId: string, optionId: string, now: string) =>
    sql`UPDATE signals SET status = 'answered', answer = ${optionId}, answered_at = ${now}, updated_at = ${now}
      WHERE id = ${signalId} AND status = 'open' RETURNING id`.pipe(
      Effect.map((rows) => rows.length === 1),
      Effect.orDie
    )

  const recordResult = (signalId: string, result: ActionResult) =>
    sql`UPDATE signals SET action_result = ${JSON.stringify(result)} WHERE id = ${signalId}`.pipe(Effect.asVoid, Effect.orDie)

  const markDismissed = (signalId: string, now: string) =>
    sql`UPDATE signals SET status = 'dismissed', updated_at = ${now}
      WHERE id = ${signalId} AND status = 'open' RETURNING id`.pipe(
      Effect.map((rows) => rows.length === 1),
      Effect.orDie
    )

  /** A being's signals in one status, newest first. */
  const list = (beingId: string, status: SignalStatus, limit: number) =>
    sql<SignalRow>`SELECT ${sql.literal(columns)} FROM signals WHERE being_id = ${beingId} AND status = ${status}
      ORDER BY created_at DESC, rowid DESC LIMIT ${limit}`.pipe(
      Effect.map((rows) => rows.map(toSignal)),
      Effect.orDie
    )

  /** How many signals are open, and the most pressing few of them. */
  const openSummary = (beingId: string, top: number) =>
    Effect.all({
      count: sql<{ n: number }>`SELECT count(*) AS n FROM signals WHERE being_id = ${beingId} AND status = 'open'`.pipe(
        Effect.map((rows) => rows[0].n)
      ),
      top: sql<SignalRow>`SELECT ${sql.literal(columns)} FROM signals WHERE being_id = ${beingId} AND status = 'open'
        ORDER BY ${sql.literal(pressing)}, created_at DESC, rowid DESC LIMIT ${top}`.pipe(
        Effect.map((rows) => rows.map(toSignal))
      )
    }).pipe(Effect.orDie)

  return { find, get, insert, markAnswered, recordResult, markDismissed, list, openSummary } as const
})

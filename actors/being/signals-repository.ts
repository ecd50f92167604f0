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
import { GateDecision } from "./contract/hush.ts"
import { StoredGate } from "./contract/signal-reads.ts"

const SignalRow = Schema.Struct({
  ...Signal.fields,
  options: JsonColumn(Schema.Array(SignalOption)),
  action: Schema.NullOr(JsonColumn(SignalAction)),
  actionResult: Schema.NullOr(JsonColumn(ActionResult))
})

export { StoredGate }

/** A signal as written: the record, the gate's stamp (null before the gate) and, while held, its release. */
const StoredSignal = Schema.Struct({
  ...SignalRow.fields,
  gate: Schema.NullOr(JsonColumn(StoredGate)),
  heldUntil: Schema.NullOr(Schema.String)
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
    // What the desktop shows: neither a signal the gate holds nor one it refused (kept for audit only).
    const shown = sql.literal(`held_until IS NULL AND (gate_decision IS NULL OR gate_decision <> 'refused')`)

    /** The being's own signal, if it has one with that id. */
    const find = operation(
      "signals.find",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, signalId: Schema.String }),
        Result: SignalRow,
        execute: ({ beingId, signalId }) =>
          sql`SELECT ${all} FROM signals WHERE id = ${signalId} AND being_id = ${beingId}`
      })
    )

    const insertRow = SqlSchema.void({
      Request: Schema.Struct({
        ...StoredSignal.fields,
        gateTrigger: Schema.NullOr(Schema.String),
        gateDecision: Schema.NullOr(Schema.String)
      }),
      execute: (signal) =>
        sql`INSERT INTO signals ${sql.insert({
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
          answered_at: signal.answeredAt,
          gate: signal.gate,
          gate_trigger: signal.gateTrigger,
          gate_decision: signal.gateDecision,
          held_until: signal.heldUntil
        })}`
    })

    /** Writes a raise with the gate's stamp; its trigger and decision are copied out for counting. */
    const insert = operation("signals.insert", (signal: typeof StoredSignal.Type) =>
      insertRow({ ...signal, gateTrigger: signal.gate?.trigger ?? null, gateDecision: signal.gate?.decision ?? null })
    )

    /** Flips an open signal to answered; None when it was not open any more. */
    const markAnswered = operation(
      "signals.markAnswered",
      SqlSchema.findOne({
        Request: Schema.Struct({
          beingId: Schema.String,
          signalId: Schema.String,
          optionId: Schema.String,
          now: Schema.String
        }),
        Result: SignalRow,
        execute: ({ beingId, signalId, optionId, now }) => sql`UPDATE signals
        SET status = 'answered', answer = ${optionId}, answered_at = ${now}, updated_at = ${now}, held_until = NULL
        WHERE id = ${signalId} AND being_id = ${beingId} AND status = 'open' RETURNING ${all}`
      })
    )

    const recordResult = operation(
      "signals.recordResult",
      SqlSchema.void({
        Request: Schema.Struct({ signalId: Schema.String, result: JsonColumn(ActionResult) }),
        execute: ({ signalId, result }) => sql`UPDATE signals SET action_result = ${result} WHERE id = ${signalId}`
      })
    )

    /** Flips an open signal to dismissed; None when it was not open any more. */
    const markDismissed = operation(
      "signals.markDismissed",
      SqlSchema.findOne({
        Request: Schema.Struct({ signalId: Schema.String, now: Schema.String }),
        Result: SignalRow,
        execute: ({
          signalId,
          now
        }) => sql`UPDATE signals SET status = 'dismissed', updated_at = ${now}, held_until = NULL
        WHERE id = ${signalId} AND status = 'open' RETURNING ${all}`
      })
    )

    /**
     * A being's signals in one status, newest first; `seq` orders signals raised in the same
     * millisecond by when they were written.
     */
    const list = operation(
      "signals.list",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, status: SignalStatus, limit: Schema.Int, offset: Schema.Int }),
        Result: SignalRow,
        execute: ({
          beingId,
          status,
          limit,
          offset
        }) => sql`SELECT ${all} FROM signals WHERE being_id = ${beingId} AND status = ${status}
        AND ${shown} ORDER BY created_at DESC, seq DESC LIMIT ${limit} OFFSET ${offset}`
      })
    )

    /** A COUNT(*) query's number. */
    const counted = <R>(query: Effect.Effect<Option.Option<{ readonly n: number }>, R>) =>
      Effect.map(query, Option.match({ onNone: () => 0, onSome: ({ n }) => n }))

    const openCount = SqlSchema.findOne({
      Request: Schema.String,
      Result: Count,
      execute: (beingId) =>
        sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM signals WHERE being_id = ${beingId} AND status = 'open' AND ${shown}`
    })

    /** The most pressing open signals; `seq` as in `list`. */
    const mostPressing = SqlSchema.findAll({
      Request: Schema.Struct({ beingId: Schema.String, top: Schema.Int }),
      Result: SignalRow,
      execute: ({ beingId, top }) => sql`SELECT ${all} FROM signals WHERE being_id = ${beingId} AND status = 'open'
        AND ${shown} ORDER BY ${sql.literal(pressing)}, created_at DESC, seq DESC LIMIT ${top}`
    })

    /** How many signals are open, and the most pressing few of them. */
    const openSummary = operation("signals.openSummary", (beingId: string, top: number) =>
      Effect.all({
        count: counted(openCount(beingId)),
        top: mostPressing({ beingId, top })
      })
    )

    /** Proactive nudges the gate let through or held since an instant: what counts against the cap. */
    const countProactiveSince = operation(
      "signals.countProactiveSince",
      (request: { readonly beingId: string; readonly since: string }) =>
        counted(
          SqlSchema.findOne({
            Request: Schema.Struct({ beingId: Schema.String, since: Schema.String }),
            Result: Count,
            execute: ({
              beingId,
              since
            }) => sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM signals WHERE being_id = ${beingId}
          AND gate_trigger = 'proactive' AND gate_decision IN ('raised', 'held') AND created_at >= ${since}`
          })(request)
        )
    )

    /** How many proactive nudges the gate holds right now (a reminder waiting for its time is not one). */
    const heldCount = operation("signals.heldCount", (beingId: string) =>
      counted(
        SqlSchema.findOne({
          Request: Schema.String,
          Result: Count,
          execute: (
            id
          ) => sql`SELECT CAST(COUNT(*) AS INTEGER) AS n FROM signals WHERE being_id = ${id} AND status = 'open'
          AND held_until IS NOT NULL AND gate_trigger = 'proactive'`
        })(beingId)
      )
    )

    /** Lets a held signal through; None when it is not held (released already, answered, dismissed). */
    const release = operation(
      "signals.release",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, signalId: Schema.String }),
        Result: SignalRow,
        execute: ({
          beingId,
          signalId
        }) => sql`UPDATE signals SET held_until = NULL WHERE id = ${signalId} AND being_id = ${beingId}
        AND status = 'open' AND held_until IS NOT NULL RETURNING ${all}`
      })
    )

    const GatedRow = Schema.Struct({ ...SignalRow.fields, gate: Schema.NullOr(JsonColumn(StoredGate)) })

    /** The being's signal with the gate's stamp, in any state. */
    const findGated = operation(
      "signals.findGated",
      SqlSchema.findOne({
        Request: Schema.Struct({ beingId: Schema.String, signalId: Schema.String }),
        Result: GatedRow,
        execute: ({ beingId, signalId }) =>
          sql`SELECT ${all}, gate FROM signals WHERE id = ${signalId} AND being_id = ${beingId}`
      })
    )

    /** Proactive nudges of one gate decision since an instant, newest first: "what did I miss". */
    const proactiveSince = operation(
      "signals.proactiveSince",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, decision: GateDecision, since: Schema.String }),
        Result: GatedRow,
        execute: ({ beingId, decision, since }) => sql`SELECT ${all}, gate FROM signals WHERE being_id = ${beingId}
        AND gate_trigger = 'proactive' AND gate_decision = ${decision} AND created_at >= ${since} ORDER BY created_at DESC, id`
      })
    )

    /** The proactive nudges the gate holds right now, with their stamps. */
    const heldProactive = operation(
      "signals.heldProactive",
      SqlSchema.findAll({
        Request: Schema.String,
        Result: GatedRow,
        execute: (beingId) => sql`SELECT ${all}, gate FROM signals WHERE being_id = ${beingId} AND status = 'open'
        AND held_until IS NOT NULL AND gate_trigger = 'proactive' ORDER BY created_at, id`
      })
    )

    /** Open signals due inside [from, to] that the desktop shows, soonest first: the agenda's own entries. */
    const openDueBetween = operation(
      "signals.openDueBetween",
      SqlSchema.findAll({
        Request: Schema.Struct({ beingId: Schema.String, from: Schema.String, to: Schema.String }),
        Result: SignalRow,
        execute: ({
          beingId,
          from,
          to
        }) => sql`SELECT ${all} FROM signals WHERE being_id = ${beingId} AND status = 'open'
        AND ${shown} AND due_at IS NOT NULL AND due_at >= ${from} AND due_at <= ${to} ORDER BY due_at, id`
      })
    )

    return {
      find,
      insert,
      markAnswered,
      recordResult,
      markDismissed,
      list,
      openSummary,
      countProactiveSince,
      heldCount,
      release,
      findGated,
      proactiveSince,
      heldProactive,
      openDueBetween
    } as const
  })
}) {}

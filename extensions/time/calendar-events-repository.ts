/** The `calendar_events` table. Every operation is scoped to one being: another's row is not there. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { BooleanColumn, operation } from "../../kernel/repository.ts"
import { CalendarEvent } from "./contract/calendar.ts"

const EventRow = Schema.Struct({ ...CalendarEvent.fields, allDay: BooleanColumn })

const columns = `id, being_id AS "beingId", title, description, location, start_at AS "startAt", end_at AS "endAt",
  all_day AS "allDay", recurrence, project_id AS "projectId", signal_id AS "signalId", created_at AS "createdAt",
  updated_at AS "updatedAt"`

const Owned = Schema.Struct({ beingId: Schema.String, id: Schema.String })

export class CalendarEventsRepository extends Effect.Service<CalendarEventsRepository>()(
  "time/CalendarEventsRepository",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const all = sql.literal(columns)

      const insert = operation(
        "calendar.insert",
        SqlSchema.void({
          Request: EventRow,
          execute: (event) =>
            sql`INSERT INTO calendar_events ${sql.insert({
              id: event.id,
              being_id: event.beingId,
              title: event.title,
              description: event.description,
              location: event.location,
              start_at: event.startAt,
              end_at: event.endAt,
              all_day: event.allDay,
              recurrence: event.recurrence,
              project_id: event.projectId,
              signal_id: event.signalId,
              created_at: event.createdAt,
              updated_at: event.updatedAt
            })}`
        })
      )

      const find = operation(
        "calendar.find",
        SqlSchema.findOne({
          Request: Owned,
          Result: EventRow,
          execute: ({ beingId, id }) =>
            sql`SELECT ${all} FROM calendar_events WHERE id = ${id} AND being_id = ${beingId}`
        })
      )

      /** Writes a changed event whole; None when the being has no such event (any more). */
      const update = operation(
        "calendar.update",
        SqlSchema.findOne({
          Request: EventRow,
          Result: EventRow,
          execute: (event) => sql`UPDATE calendar_events SET title = ${event.title}, description = ${event.description},
        location = ${event.location}, start_at = ${event.startAt}, end_at = ${event.endAt}, all_day = ${event.allDay},
        recurrence = ${event.recurrence}, project_id = ${event.projectId}, signal_id = ${event.signalId},
        updated_at = ${event.updatedAt}
        WHERE id = ${event.id} AND being_id = ${event.beingId} RETURNING ${all}`
        })
      )

      /** The removed event, if the being had it. */
      const remove = operation(
        "calendar.remove",
        SqlSchema.findOne({
          Request: Owned,
          Result: EventRow,
          execute: ({ beingId, id }) =>
            sql`DELETE FROM calendar_events WHERE id = ${id} AND being_id = ${beingId} RETURNING ${all}`
        })
      )

      /**
       * Events that may have an occurrence in [from, to]: a repeating one from its start on, a single one if it
       * overlaps.
       */
      const mayOccur = operation(
        "calendar.mayOccur",
        SqlSchema.findAll({
          Request: Schema.Struct({ beingId: Schema.String, from: Schema.String, to: Schema.String }),
          Result: EventRow,
          execute: ({ beingId, from, to }) => sql`SELECT ${all} FROM calendar_events WHERE being_id = ${beingId}
        AND start_at <= ${to} AND (recurrence IS NOT NULL OR COALESCE(end_at, start_at) >= ${from}) ORDER BY start_at, id`
        })
      )

      /** Every reminder signal the being's events link, so the agenda does not show them twice. */
      const linkedSignals = operation(
        "calendar.linkedSignals",
        SqlSchema.findAll({
          Request: Schema.String,
          Result: Schema.Struct({ signalId: Schema.String }),
          execute: (beingId) =>
            sql`SELECT signal_id AS "signalId" FROM calendar_events WHERE being_id = ${beingId} AND signal_id IS NOT NULL`
        })
      )

      return { insert, find, update, remove, mayOccur, linkedSignals } as const
    })
  }
) {}

/**
 * Where an import writes: the person's events, to-dos and memories, each row keyed by an id made from the person and
 * what names the item at its source (a UID, a note's content hash), so importing the same file again finds the rows it
 * made. A UID that is already one of the person's own ids (an export of this node) names that very row. Portable SQL:
 * `ON CONFLICT … DO UPDATE` reads the same on SQLite and PostgreSQL.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import type { EventDraft, TodoDraft } from "./calendar-file.ts"

const digest = (...parts: ReadonlyArray<string>) => createHash("sha256").update(parts.join("\n")).digest("hex")

/** An event's or to-do's id for a UID from elsewhere: `ics_` and 40 hex digits (a RecordId). */
export const calendarIdOf = (beingId: string, uid: string) => `ics_${digest(beingId, uid).slice(0, 40)}`

/** An imported conversation's thread id: `imp` and 40 hex digits. */
export const threadIdOf = (beingId: string, key: string) => `imp${digest(beingId, key).slice(0, 40)}`

/** A note part's memory id: a UUID made from the person, the note's hash and the part. */
export const noteMemoryIdOf = (beingId: string, hash: string, part: number) => {
  const hex = digest(beingId, hash, String(part))
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

export class ImportRepository extends Effect.Service<ImportRepository>()("imports/ImportRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient

    /** The row's id: the UID itself when it is one of the person's own rows of `table`, else one made from it. */
    const idFor = (table: "calendar_events" | "todos", beingId: string, uid: string) =>
      Effect.map(
        /^[A-Za-z0-9_-]{1,64}$/.test(uid)
          ? sql<{ id: string }>`SELECT id FROM ${sql(table)} WHERE id = ${uid} AND being_id = ${beingId}`
          : Effect.succeed([]),
        (rows) => rows[0]?.id ?? calendarIdOf(beingId, uid)
      )

    const saveEvent = (beingId: string, event: EventDraft, now: string) =>
      Effect.flatMap(
        idFor("calendar_events", beingId, event.uid),
        (id) => sql`INSERT INTO calendar_events (id, being_id, title, description, location, start_at, end_at, all_day,
            recurrence, project_id, signal_id, created_at, updated_at)
          VALUES (${id}, ${beingId}, ${event.title}, ${event.description}, ${event.location}, ${event.startAt},
            ${event.endAt}, ${event.allDay ? 1 : 0}, ${event.recurrence}, NULL, NULL, ${now}, ${now})
          ON CONFLICT (id) DO UPDATE SET title = excluded.title, description = excluded.description,
            location = excluded.location, start_at = excluded.start_at, end_at = excluded.end_at,
            all_day = excluded.all_day, recurrence = excluded.recurrence, updated_at = excluded.updated_at`
      )

    const saveTodo = (beingId: string, todo: TodoDraft, now: string) =>
      Effect.flatMap(
        idFor("todos", beingId, todo.uid),
        (id) => sql`INSERT INTO todos (id, being_id, title, notes, status, priority, due_at, completed_at, project_id,
            memory_id, deferred_count, created_at, updated_at)
          VALUES (${id}, ${beingId}, ${todo.title}, ${todo.notes}, ${todo.status}, ${todo.priority}, ${todo.dueAt},
            ${todo.completedAt}, NULL, NULL, 0, ${now}, ${now})
          ON CONFLICT (id) DO UPDATE SET title = excluded.title, notes = excluded.notes, status = excluded.status,
            priority = excluded.priority, due_at = excluded.due_at, completed_at = excluded.completed_at,
            updated_at = excluded.updated_at`
      )

    /** Stores a note's memory unless it is there already; answers whether it was stored. */
    const saveNoteMemory = (
      beingId: string,
      memory: { id: string; content: string; tags: ReadonlyArray<string>; source: string },
      now: string
    ) =>
      Effect.flatMap(sql<{ id: string }>`SELECT id FROM twin_memories WHERE id = ${memory.id}`, (found) =>
        found.length > 0
          ? Effect.succeed(false)
          : Effect.as(
              sql`INSERT INTO twin_memories (id, being_id, kind, content, importance, tags, source, created_at)
                  VALUES (${memory.id}, ${beingId}, 'document', ${memory.content}, 0.5, ${JSON.stringify(memory.tags)},
                    ${memory.source}, ${now})`,
              true
            )
      )

    /** Stores an imported conversation as a read-only thread unless it is there already; answers whether it was. */
    const saveThread = (
      beingId: string,
      thread: { id: string; title: string; createdAt: string },
      messages: ReadonlyArray<{ id: string; role: "user" | "assistant"; content: string; createdAt: string }>
    ) =>
      Effect.flatMap(sql<{ id: string }>`SELECT id FROM threads WHERE id = ${thread.id}`, (found) =>
        found.length > 0
          ? Effect.succeed(false)
          : Effect.gen(function* () {
              yield* sql`INSERT INTO threads (id, kind, title, created_at)
                VALUES (${thread.id}, 'imported', ${thread.title}, ${thread.createdAt})`
              yield* sql`INSERT INTO thread_participants (thread_id, being_id) VALUES (${thread.id}, ${beingId})`
              for (const message of messages)
                yield* sql`INSERT INTO thread_messages (id, thread_id, role, author_id, content, attachments, tool_calls,
                    created_at)
                  VALUES (${message.id}, ${thread.id}, ${message.role}, ${message.role === "user" ? beingId : null},
                    ${message.content}, '[]', '[]', ${message.createdAt})`
              return true
            })
      )

    return {
      saveThread,
      saveEvent,
      saveTodo,
      saveNoteMemory,
      transaction: <A, E, R>(effect: Effect.Effect<A, E, R>) => sql.withTransaction(effect)
    } as const
  })
}) {}

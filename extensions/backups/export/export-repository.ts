/**
 * What an export reads: one person's rows of the features' tables, read-only, each by the person's id from the
 * session. Memories are read in pages by their sequence, so a twin of any size streams. SQL here is portable.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

export interface MemoryRow {
  readonly seq: number
  readonly id: string
  readonly kind: string
  readonly content: string
  readonly importance: number
  readonly tags: string
  readonly source: string
  readonly created_at: string
}

export interface EventRow {
  readonly id: string
  readonly title: string
  readonly description: string
  readonly location: string
  readonly start_at: string
  readonly end_at: string | null
  readonly all_day: number
  readonly recurrence: string | null
  readonly created_at: string
  readonly updated_at: string
}

export interface TodoRow {
  readonly id: string
  readonly title: string
  readonly notes: string
  readonly status: string
  readonly priority: string
  readonly due_at: string | null
  readonly completed_at: string | null
  readonly created_at: string
  readonly updated_at: string
}

export interface ThreadRow {
  readonly id: string
  readonly kind: string
  readonly title: string
  readonly created_at: string
}

export interface MessageRow {
  readonly role: string
  readonly author: string | null
  readonly content: string
  readonly created_at: string
}

export interface ProjectRow {
  readonly id: string
  readonly title: string
  readonly brief: string
  readonly status: string
  readonly created_at: string
  readonly updated_at: string
}

export const MEMORY_PAGE = 1000

export class ExportRepository extends Effect.Service<ExportRepository>()("export/ExportRepository", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      being: (beingId: string) =>
        Effect.map(
          sql<{ handle: string; display_name: string; created_at: string }>`SELECT handle, display_name, created_at
            FROM beings WHERE id = ${beingId}`,
          (rows) => rows[0] ?? null
        ),
      profile: (beingId: string) =>
        Effect.map(sql<Record<string, string>>`SELECT * FROM twin_profiles WHERE being_id = ${beingId}`, (rows) =>
          rows[0] === undefined ? null : rows[0]
        ),
      memories: (beingId: string, afterSeq: number) =>
        sql<MemoryRow>`SELECT seq, id, kind, content, importance, tags, source, created_at FROM twin_memories
          WHERE being_id = ${beingId} AND seq > ${afterSeq} ORDER BY seq LIMIT ${MEMORY_PAGE}`,
      events: (beingId: string) =>
        sql<EventRow>`SELECT id, title, description, location, start_at, end_at, all_day, recurrence, created_at,
          updated_at FROM calendar_events WHERE being_id = ${beingId} ORDER BY start_at, id`,
      todos: (beingId: string) =>
        sql<TodoRow>`SELECT id, title, notes, status, priority, due_at, completed_at, created_at, updated_at
          FROM todos WHERE being_id = ${beingId} ORDER BY created_at, id`,
      threads: (beingId: string) =>
        sql<ThreadRow>`SELECT t.id, t.kind, t.title, t.created_at FROM threads t
          JOIN thread_participants p ON p.thread_id = t.id WHERE p.being_id = ${beingId} ORDER BY t.created_at, t.id`,
      messages: (threadId: string) =>
        sql<MessageRow>`SELECT m.role, b.handle AS author, m.content, m.created_at FROM thread_messages m
          LEFT JOIN beings b ON b.id = m.author_id WHERE m.thread_id = ${threadId} ORDER BY m.created_at, m.id`,
      projects: (beingId: string) =>
        sql<ProjectRow>`SELECT id, title, brief, status, created_at, updated_at FROM projects
          WHERE owner_id = ${beingId} ORDER BY created_at, id`,
      tasks: (projectId: string) =>
        sql<Record<string, unknown>>`SELECT key, title, description, role, status, depends_on, output_kind, started_at,
          finished_at, output_text FROM project_tasks WHERE project_id = ${projectId} ORDER BY position`,
      traces: (projectId: string) =>
        sql<Record<string, unknown>>`SELECT task_id, kind, agent_id, text, data, at FROM project_traces
          WHERE project_id = ${projectId} ORDER BY seq`,
      outputs: (projectId: string) =>
        sql<{ name: string; path: string; kind: string }>`SELECT name, path, kind FROM project_outputs
          WHERE project_id = ${projectId} ORDER BY path`,
      ledger: (beingId: string) =>
        sql<Record<string, unknown>>`SELECT created_at, amount, reason, counterparty, movement_id, order_id, id
          FROM market_ledger WHERE account = ${beingId} ORDER BY created_at, id`
    } as const
  })
}) {}

/**
 * The node's MCP tools: each needs one grant, takes arguments checked by the same field schemas as the matching HTTP
 * route's body or query, and calls the same service through its owner's contract tag, for the client's person only.
 * A tool answers what it did as structured content (and the same JSON as text, for clients that read only text) and
 * a short line for the twin's `mcp` activity.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { IsoDateInput } from "../../actors/being/contract/signal.ts"
import { MemoryContent, MemoryKind, MemoryTags } from "../../kernel/contract/memory.ts"
import type { Caller } from "../accounts/contract/session.ts"
import { FileAccess } from "../files/contract/file-access.ts"
import { FileIdParams, FileSearchParams } from "../files/contract/records.ts"
import { CalendarParams, CreateEvent } from "../time/contract/calendar.ts"
import { TwinTime } from "../time/contract/twin-time.ts"
import { CreateTodo, RecordId, TodoStatus } from "../time/contract/todos.ts"
import { TwinMemories } from "../twin/contract/memories.ts"
import type { McpGrant } from "./contract/records.ts"

/** What a tool did: its answer, and the activity line naming it. */
export interface ToolOutcome {
  readonly structured: Record<string, unknown>
  readonly did: string
}

/** A refusal of the service the tool called (the route's refusal body), answered as the tool's error result. */
export interface ToolRefusal {
  readonly error: string
  readonly message: string
}

export type ToolServices = TwinMemories | TwinTime | FileAccess

export interface McpTool<A = never> {
  readonly name: string
  readonly grant: McpGrant
  readonly description: string
  readonly readOnly: boolean
  readonly input: Schema.Schema<A, unknown>
  readonly run: (caller: Caller, args: A, client: string) => Effect.Effect<ToolOutcome, ToolRefusal, ToolServices>
}

const tool = <A, I>(definition: Omit<McpTool<A>, "input"> & { readonly input: Schema.Schema<A, I> }) =>
  definition as unknown as McpTool<unknown>

const described = <S extends Schema.Schema.Any>(schema: S, description: string) =>
  schema.annotations({ description }) as S

/** A count from 1 to `most`, as a JSON number (the HTTP query's is the same range as text). */
const count = (most: number) => Schema.Number.pipe(Schema.int(), Schema.between(1, most))

/** A file that is not text: the tool answers text only. */
const notText = (mime: string): ToolRefusal => ({
  error: "not_text",
  message: `This file is ${mime}, not text: file_read answers text only.`
})

const quoted = (text: string) => `"${text.length > 60 ? `${text.slice(0, 57)}…` : text}"`

export const mcpTools: ReadonlyArray<McpTool<unknown>> = [
  tool({
    name: "memory_search",
    grant: "memory.read",
    readOnly: true,
    description:
      "Search the person's memories by words and meaning (hybrid), best first; without a query, the newest. " +
      "Answers { memories, mode }.",
    input: Schema.Struct({
      query: described(Schema.String.pipe(Schema.maxLength(500)), "What to look for"),
      limit: Schema.optional(described(count(100), "How many at most (default 20)"))
    }),
    run: (caller, args) =>
      Effect.flatMap(TwinMemories, (memories) =>
        memories.search(caller.beingId, {
          q: args.query,
          ...(args.limit === undefined ? {} : { limit: args.limit })
        })
      ).pipe(
        Effect.map(({ memories, mode }) => ({
          structured: { memories, mode },
          did: `searched memories for ${quoted(args.query)}`
        }))
      )
  }),
  tool({
    name: "memory_store",
    grant: "memory.write",
    readOnly: false,
    description: "Remember something in the person's twin. Answers { memory }.",
    input: Schema.Struct({
      text: described(MemoryContent, "What to remember"),
      kind: Schema.optional(described(MemoryKind, "What kind of memory (default fact)")),
      tags: Schema.optional(described(MemoryTags, "Tags to find it by"))
    }),
    run: (caller, args, client) =>
      Effect.flatMap(TwinMemories, (memories) =>
        memories.store(caller.beingId, {
          content: args.text,
          ...(args.kind === undefined ? {} : { kind: args.kind }),
          ...(args.tags === undefined ? {} : { tags: args.tags }),
          source: `mcp:${client}`.slice(0, 200)
        })
      ).pipe(Effect.map((memory) => ({ structured: { memory }, did: `remembered ${quoted(args.text)}` })))
  }),
  tool({
    name: "todos_list",
    grant: "todos.read",
    readOnly: true,
    description: "The person's to-dos, due soonest first (at most 100), of one status if given. Answers { todos }.",
    input: Schema.Struct({ status: Schema.optional(described(TodoStatus, "Only to-dos of this status")) }),
    run: (caller, args) =>
      Effect.flatMap(TwinTime, (time) =>
        time.listTodos(caller.beingId, {
          ...(args.status === undefined ? {} : { status: [args.status] }),
          limit: 100,
          offset: 0
        })
      ).pipe(Effect.map((todos) => ({ structured: { todos }, did: "listed to-dos" })))
  }),
  tool({
    name: "todo_add",
    grant: "todos.write",
    readOnly: false,
    description: "Add an open to-do for the person. Answers { todo }.",
    input: Schema.Struct({
      title: described(CreateTodo.fields.title, "The to-do"),
      dueAt: Schema.optional(described(IsoDateInput, "When it is due (ISO 8601)"))
    }),
    run: (caller, args) =>
      Effect.flatMap(TwinTime, (time) =>
        time.createTodo(caller.beingId, {
          title: args.title,
          ...(args.dueAt === undefined ? {} : { dueAt: args.dueAt })
        })
      ).pipe(Effect.map((todo) => ({ structured: { todo }, did: `added the to-do ${quoted(todo.title)}` })))
  }),
  tool({
    name: "todo_complete",
    grant: "todos.write",
    readOnly: false,
    description: "Mark one of the person's to-dos done. Answers { todo }.",
    input: Schema.Struct({ id: described(RecordId, "The to-do's id, as todos_list gave it") }),
    run: (caller, args) =>
      Effect.flatMap(TwinTime, (time) => time.completeTodo(caller.beingId, args.id)).pipe(
        Effect.map((todo) => ({ structured: { todo }, did: `completed the to-do ${quoted(todo.title)}` }))
      )
  }),
  tool({
    name: "calendar_list",
    grant: "calendar.read",
    readOnly: true,
    description:
      "Every occurrence of the person's events from `from` to `to` (repeating ones expanded, at most 400 days), " +
      "with their open due-dated reminders, soonest first. Answers { entries }.",
    input: CalendarParams,
    run: (caller, args) =>
      Effect.flatMap(TwinTime, (time) => time.agenda(caller.beingId, args.from, args.to)).pipe(
        Effect.map((entries) => ({ structured: { entries }, did: `read the calendar from ${args.from} to ${args.to}` }))
      )
  }),
  tool({
    name: "event_add",
    grant: "calendar.write",
    readOnly: false,
    description:
      "Add an event to the person's calendar, repeating by an RFC 5545 RRULE (`FREQ=WEEKLY;BYDAY=MO`) if given. " +
      "Answers { event }.",
    input: Schema.Struct({
      title: described(CreateEvent.fields.title, "The event"),
      startAt: described(IsoDateInput, "When it starts (ISO 8601)"),
      endAt: Schema.optional(described(IsoDateInput, "When it ends (ISO 8601)")),
      rrule: Schema.optional(described(Schema.String.pipe(Schema.maxLength(500)), "How it repeats (an RRULE)"))
    }),
    run: (caller, args) =>
      Effect.flatMap(TwinTime, (time) =>
        time.createEvent(caller.beingId, {
          title: args.title,
          startAt: args.startAt,
          ...(args.endAt === undefined ? {} : { endAt: args.endAt }),
          ...(args.rrule === undefined ? {} : { recurrence: args.rrule })
        })
      ).pipe(Effect.map((event) => ({ structured: { event }, did: `added the event ${quoted(event.title)}` })))
  }),
  tool({
    name: "files_search",
    grant: "files.read",
    readOnly: true,
    description: "The person's files whose name holds the query (at most 100). Answers { files }.",
    input: Schema.Struct({ query: described(FileSearchParams.fields.q, "Part of a file's name") }),
    run: (caller, args) =>
      Effect.flatMap(FileAccess, (files) => files.search(caller, args.query)).pipe(
        Effect.map((files) => ({ structured: { files }, did: `searched files for ${quoted(args.query)}` }))
      )
  }),
  tool({
    name: "file_read",
    grant: "files.read",
    readOnly: true,
    description:
      "One of the person's files as text (at most 1 MiB; a file that is not text is refused). Answers { content, mime }.",
    input: Schema.Struct({ id: described(FileIdParams.fields.id, "The file's id, as files_search gave it") }),
    run: (caller, args) =>
      Effect.flatMap(FileAccess, (files) => files.read(caller, args.id)).pipe(
        Effect.flatMap((file) =>
          "content" in file
            ? Effect.succeed({ structured: { ...file }, did: `read a file (${file.mime})` })
            : Effect.fail(notText(file.mime))
        )
      )
  })
]

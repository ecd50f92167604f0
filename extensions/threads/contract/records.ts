/**
 * Threads and their messages as they travel on the wire, and the tool chips of a Muse reply.
 * The spec leaves Thread and Message "not shown"; the fields and limits here are ours and listed
 * in docs/api.md ("Threads and the Muse").
 */
import * as Schema from "effect/Schema"
import { PageParams } from "../../../kernel/contract/page.ts"

/** A request body with a field its schema does not list is a 400, not silently trimmed. */
const refuseUnknownFields = { parseOptions: { onExcessProperty: "error" } } as const

export const threadKinds = ["muse", "direct", "agent", "imported"] as const
export const ThreadKind = Schema.Literal(...threadKinds)
export type ThreadKind = typeof ThreadKind.Type

/**
 * Who answers a message posted to the thread: `muse` (the Muse replies, streamed on the thread's
 * topic), `being` (the other being answers in person; nothing replies by itself), `none` (nobody:
 * the thread is read-only to the caller, as an agent's thread is).
 */
export const replyPolicies = ["muse", "being", "none"] as const
export const ReplyPolicy = Schema.Literal(...replyPolicies)
export type ReplyPolicy = typeof ReplyPolicy.Type

export const Thread = Schema.Struct({
  id: Schema.String,
  kind: ThreadKind,
  /** A muse thread: the chosen Muse name; a direct thread: the other being's name. */
  title: Schema.String,
  /** The beings in the thread (the Muse is not a being). */
  participants: Schema.Array(Schema.String),
  replyPolicy: ReplyPolicy,
  /** The newest message's first characters, or null for an empty thread. */
  preview: Schema.NullOr(Schema.String),
  lastMessageAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type Thread = typeof Thread.Type

/** One of the caller's uploads attached to a message. */
export const Attachment = Schema.Struct({ fileId: Schema.String, name: Schema.String, size: Schema.Number })
export type Attachment = typeof Attachment.Type

export const toolStates = ["pending", "running", "done", "error"] as const
export const ToolState = Schema.Literal(...toolStates)
export type ToolState = typeof ToolState.Type

/**
 * A tool chip: one skill the Muse called while replying. `approval` is set when the skill acts on
 * the world and was not run: a decision waits on the owner's desktop (state `error`).
 */
export const ToolCallChip = Schema.Struct({
  id: Schema.String,
  /** The skill's name (`memory.recall`). */
  name: Schema.String,
  state: ToolState,
  /** Why it failed or did not run; null otherwise. */
  error: Schema.NullOr(Schema.String),
  approval: Schema.NullOr(Schema.Struct({ signalId: Schema.NullOr(Schema.String), delivered: Schema.Boolean })),
  durationMs: Schema.NullOr(Schema.Number)
})
export type ToolCallChip = typeof ToolCallChip.Type

export const messageRoles = ["user", "assistant"] as const
export const MessageRole = Schema.Literal(...messageRoles)

export const Message = Schema.Struct({
  id: Schema.String,
  threadId: Schema.String,
  /** `assistant`: the Muse's reply; `user`: a being wrote it. */
  role: MessageRole,
  /** The being that wrote it; null for the Muse. */
  authorId: Schema.NullOr(Schema.String),
  content: Schema.String,
  attachments: Schema.Array(Attachment),
  toolCalls: Schema.Array(ToolCallChip),
  createdAt: Schema.String
})
export type Message = typeof Message.Type

export const MAX_MESSAGE_CHARS = 8000
export const MAX_ATTACHMENTS = 8
/** What GET /messages answers: the newest this many, oldest first. */
export const MESSAGES_PAGE = 500
/** The Muse name a being may choose (the twin profile's preference `museName`). */
export const MAX_MUSE_NAME = 40
export const DEFAULT_MUSE_NAME = "Muse"

const Id = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))

export const NewThread = Schema.Union(
  Schema.Struct({ kind: Schema.Literal("muse") }).annotations(refuseUnknownFields),
  /** A direct message thread with another being: the existing one is answered when there is one. */
  Schema.Struct({ kind: Schema.Literal("direct"), withBeingId: Id }).annotations(refuseUnknownFields)
).annotations({ identifier: "NewThread" })
export type NewThread = typeof NewThread.Type

export const FileIdRef = Schema.String.pipe(
  Schema.minLength(1),
  Schema.maxLength(1500),
  Schema.pattern(/^[A-Za-z0-9_-]+$/)
)

export const NewMessage = Schema.Struct({
  content: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(MAX_MESSAGE_CHARS)),
  /** File ids of the caller's own uploads (POST /api/files/upload answers them). */
  attachments: Schema.optionalWith(Schema.Array(FileIdRef).pipe(Schema.maxItems(MAX_ATTACHMENTS)), { exact: true })
}).annotations({ identifier: "NewMessage", ...refuseUnknownFields })
export type NewMessage = typeof NewMessage.Type

/** Which of the caller's threads: a `kind` or all, a page at a time (kernel/contract/page.ts). */
export const ThreadListParams = Schema.Struct({ kind: Schema.optional(ThreadKind), ...PageParams.fields })
export const ThreadPath = Schema.Struct({ id: Id })
export const MessagePath = Schema.Struct({ id: Id, messageId: Id })

/** The most of a message read aloud in one go: the speech API's limit on the text of one call. */
export const MAX_SPOKEN_CHARS = 4096

/**
 * The live channel's own words, beside the events of host/contract/events.ts: what a client may send
 * (follow or stop following a topic), how the node answers it, and the close codes. Every frame
 * either way is one JSON text. Plain schemas only, so the web app can import this file.
 */
import * as Schema from "effect/Schema"

export const LIVE_PATH = "/api/ws"

/** `<kind>:<id>`, e.g. `thread:3Jd9…`; a feature that owns the kind decides who may follow it. */
export const Topic = Schema.String.pipe(
  Schema.pattern(/^[a-z][a-z0-9_-]{0,31}:[A-Za-z0-9_.:-]{1,128}$/, { message: () => "a topic such as thread:<id>" })
)

export const ClientMessage = Schema.Union(
  Schema.Struct({ type: Schema.Literal("subscribe"), topic: Topic }),
  Schema.Struct({ type: Schema.Literal("unsubscribe"), topic: Topic })
)
export type ClientMessage = typeof ClientMessage.Type

/** Refusal codes of a client message, sent as `{ type: "error", error, message, topic? }`. */
export const LiveErrorCode = Schema.Literal("invalid_message", "unknown_topic", "topic_refused", "too_many_topics")
export type LiveErrorCode = typeof LiveErrorCode.Type

export const ServerReply = Schema.Union(
  Schema.Struct({ type: Schema.Literal("subscribed"), topic: Schema.String }),
  Schema.Struct({ type: Schema.Literal("unsubscribed"), topic: Schema.String }),
  Schema.Struct({
    type: Schema.Literal("error"),
    error: LiveErrorCode,
    message: Schema.String,
    topic: Schema.optional(Schema.String)
  })
)
export type ServerReply = typeof ServerReply.Type

export const closeCodes = {
  /** The node is shutting down. */
  goingAway: 1001,
  /** The client sent faster than the node reads (more than `MAX_QUEUED_MESSAGES` waiting). */
  policy: 1008,
  /** The session behind the socket ended: logout, revocation, password reset, suspension, expiry. */
  sessionEnded: 4001
} as const

/** Topics one socket may follow at once. */
export const MAX_TOPICS = 64

/** Largest client frame in bytes; a larger one closes the socket (1009). */
export const MAX_CLIENT_FRAME = 4096

/** Client messages waiting to be handled on one socket. */
export const MAX_QUEUED_MESSAGES = 32

export const HEARTBEAT_INTERVAL = "30 seconds"

/**
 * Where an agent's tool loop stands while its step waits for the owner's decision: the conversation so far, the
 * model calls spent, what it saved and what its skills answered, and the calls that wait. Stored on the step's row
 * (`checkpoint`), so a restart goes on from here without calling the model again.
 */
import * as Schema from "effect/Schema"
import { ChatMessage } from "../../../extensions/models/contract/chat.ts"

/** A world-acting call the owner has yet to decide on: its tool call in the conversation and its decision signal. */
export const PendingDecision = Schema.Struct({
  toolCallId: Schema.String,
  skill: Schema.String,
  signalId: Schema.String
})
export type PendingDecision = typeof PendingDecision.Type

export const TaskCheckpoint = Schema.Struct({
  messages: Schema.Array(ChatMessage),
  /** Model calls the task has made, its repair passes included. */
  steps: Schema.Number,
  repairs: Schema.Number,
  costUsd: Schema.Number,
  lastMessage: Schema.String,
  saved: Schema.Array(Schema.Struct({ path: Schema.String, content: Schema.String })),
  skillResults: Schema.Array(
    Schema.Struct({
      skill: Schema.String,
      ok: Schema.Boolean,
      output: Schema.optionalWith(Schema.Unknown, { exact: true }),
      error: Schema.optionalWith(Schema.String, { exact: true })
    })
  ),
  pending: Schema.Array(PendingDecision)
})
export type TaskCheckpoint = typeof TaskCheckpoint.Type

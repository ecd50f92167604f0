/**
 * The twin's learning loop as the wire sees it: the four sources it learns from on its own, the
 * owner's switch for each, and how much waits in its queue. docs/api.md ("Twin") lists the routes.
 */
import * as Schema from "effect/Schema"

/**
 * `thread`: the being's own messages to its Muse; `chat`: what it sends the Muse through the chat bridge; `mail`:
 * synced mail; `file`: indexed files.
 */
export const learningSources = ["thread", "chat", "mail", "file"] as const
export const LearningSource = Schema.Literal(...learningSources)
export type LearningSource = typeof LearningSource.Type

export const LearningSources = Schema.Struct({
  thread: Schema.Boolean,
  chat: Schema.Boolean,
  mail: Schema.Boolean,
  file: Schema.Boolean
})
export type LearningSources = typeof LearningSources.Type

/** Every source learns until its owner switches it off. */
export const defaultLearningSources: LearningSources = { thread: true, chat: true, mail: true, file: true }

/** `GET /api/twin/learning`: the switches, and how many pieces of text wait for the next pass. */
export const LearningState = Schema.Struct({
  sources: LearningSources,
  queued: Schema.Number
})
export type LearningState = typeof LearningState.Type

/** `PUT /api/twin/learning`: the switches given change, the rest stay; an unknown source is a 400. */
const refuseUnknownFields = { parseOptions: { onExcessProperty: "error" } } as const
export const LearningUpdate = Schema.Struct({
  sources: Schema.partialWith(LearningSources, { exact: true }).annotations(refuseUnknownFields)
}).annotations(refuseUnknownFields)
export type LearningUpdate = typeof LearningUpdate.Type

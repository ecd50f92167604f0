/**
 * The being actor's refusals of a signal's answer or dismissal (its protocol's errors), here so a
 * feature that reaches the actor through its tags (contract/being-signals.ts) can name them.
 */
import * as Schema from "effect/Schema"
import { SignalStatus } from "./signal.ts"

export class SignalNotFound extends Schema.TaggedError<SignalNotFound>()("SignalNotFound", {
  signalId: Schema.String
}) {}

export class SignalClosed extends Schema.TaggedError<SignalClosed>()("SignalClosed", {
  signalId: Schema.String,
  status: SignalStatus
}) {}

export class UnknownOption extends Schema.TaggedError<UnknownOption>()("UnknownOption", {
  signalId: Schema.String,
  optionId: Schema.String,
  options: Schema.Array(Schema.String)
}) {}

/** A registered action refused to run; the answer that would have run it did not happen. */
export class ActionFailed extends Schema.TaggedError<ActionFailed>()("ActionFailed", {
  kind: Schema.String,
  reason: Schema.String
}) {}

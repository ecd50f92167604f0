/**
 * The desktop's refusals: each its own tag for callers, its status and code (docs/api.md) fixed for
 * the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A signal that breaks a limit of its shape (a title too long from a model, say). */
export class SignalInvalid extends refusal(400, "SignalInvalid", "invalid_request") {}
/** The being has no signal with that id. */
export class NoSuchSignal extends refusal(404, "NoSuchSignal", "not_found") {}
/** An answer or dismissal of a signal already answered or dismissed. */
export class SignalAlreadyClosed extends refusal(409, "SignalAlreadyClosed", "signal_closed") {}
/** An answer naming no option of the signal. */
export class SignalOptionUnknown extends refusal(400, "SignalOptionUnknown", "unknown_option") {}
/** An answer whose action could not be carried out; the signal stays open. */
export class SignalActionFailed extends refusal(409, "SignalActionFailed", "action_failed") {}
/** A raise on the owner's desktop before the node has an owner. */
export class NoOwnerDesktop extends refusal(503, "NoOwnerDesktop", "no_owner") {}
/** The now view of a being with no account. */
export class NoSuchAccount extends refusal(404, "NoSuchAccount", "not_found") {}

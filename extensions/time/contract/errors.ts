/** The time feature's named refusals: to-dos, the calendar and the hush's nudges (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A to-do the caller does not have (another being's answers the same). */
export class TodoNotFound extends refusal(404, "TodoNotFound", "not_found") {}

/** A calendar event the caller does not have (another being's answers the same). */
export class EventNotFound extends refusal(404, "EventNotFound", "not_found") {}

/** A nudge the caller was not given, asked why it came. */
export class NudgeNotFound extends refusal(404, "NudgeNotFound", "not_found") {}

/** An event whose end is before its start. */
export class EventEndsBeforeStart extends refusal(400, "EventEndsBeforeStart", "invalid_request") {}

/** An event's recurrence that is not an RFC 5545 rule. */
export class InvalidRecurrence extends refusal(400, "InvalidRecurrence", "invalid_recurrence") {}

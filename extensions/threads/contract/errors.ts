/**
 * The threads' refusals: each its own tag for callers, its status and code (docs/api.md) fixed for
 * the wire.
 */
import { refusal } from "../../../kernel/contract/errors.ts"

/** No thread with that id that the caller is in (another's, or one the caller left, is missing). */
export class ThreadNotFound extends refusal(404, "ThreadNotFound", "thread_not_found") {}
/** A direct thread asked for with the caller's own being. */
export class ThreadWithSelf extends refusal(400, "ThreadWithSelf", "thread_with_self") {}
/** A direct thread asked for with a being that does not exist. */
export class ThreadBeingNotFound extends refusal(404, "ThreadBeingNotFound", "being_not_found") {}
/** A message written to a thread nobody answers in. */
export class ThreadReadOnly extends refusal(409, "ThreadReadOnly", "thread_read_only") {}
/** No message with that id in the thread. */
export class MessageNotFound extends refusal(404, "MessageNotFound", "message_not_found") {}
/** An attachment that is not one of the caller's uploads (a project's file, the owner's folder). */
export class AttachmentNotUpload extends refusal(400, "AttachmentNotUpload", "attachment_not_upload") {}
/** An attachment naming no upload of the caller's. */
export class AttachmentNotFound extends refusal(404, "AttachmentNotFound", "attachment_not_found") {}
/** A read for the Muse of a file id that is not an upload. */
export class NotAnUpload extends refusal(404, "NotAnUpload", "not_found") {}

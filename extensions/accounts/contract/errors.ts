/** The accounts feature's named refusals: sign-up, sign-in, sessions, access codes and mail links (codes in docs/api.md). */
import { refusal } from "../../../kernel/contract/errors.ts"

/** A route that needs a session, asked without one (or with a forged, unknown or expired cookie). */
export class SessionRequired extends refusal(401, "SessionRequired", "unauthorized") {}

/** An email and password that match no account. */
export class InvalidCredentials extends refusal(401, "InvalidCredentials", "invalid_credentials") {}

/** An owner-only route, asked by someone other than the node's owner. */
export class OwnerOnly extends refusal(403, "OwnerOnly", "forbidden") {}

/** A change to a being that is not the caller's own person account. */
export class NotOwnAccount extends refusal(403, "NotOwnAccount", "forbidden") {}

/** A password change whose current password is wrong. */
export class WrongPassword extends refusal(403, "WrongPassword", "wrong_password") {}

/** A sign-up with an access code that is unknown or already used. */
export class InvalidAccessCode extends refusal(403, "InvalidAccessCode", "invalid_access_code") {}

/** A handle another being holds. */
export class HandleTaken extends refusal(409, "HandleTaken", "handle_taken") {}

/** A sign-up with an email another account has. */
export class EmailTaken extends refusal(409, "EmailTaken", "email_taken") {}

/** An account id that names no person's account. */
export class AccountNotFound extends refusal(404, "AccountNotFound", "not_found") {}

/** A session id that is not one of the caller's sessions. */
export class SessionNotFound extends refusal(404, "SessionNotFound", "not_found") {}

/** An access code id that names no code. */
export class AccessCodeNotFound extends refusal(404, "AccessCodeNotFound", "not_found") {}

/** Suspending the node's owner. */
export class CannotSuspendOwner extends refusal(400, "CannotSuspendOwner", "cannot_suspend_owner") {}

/** Deleting the owner's bootstrap access code. */
export class BootstrapCodeKept extends refusal(400, "BootstrapCodeKept", "bootstrap_code") {}

/** Deleting an access code someone joined with. */
export class CodeUsed extends refusal(400, "CodeUsed", "code_used") {}

/** A mail link (confirm or reset) that is unknown, used or expired. */
export class InvalidToken extends refusal(400, "InvalidToken", "invalid_token") {}

/** Sending mail on a node with no SMTP_URL. */
export class EmailNotConfigured extends refusal(409, "EmailNotConfigured", "email_not_configured") {}

/** The mail server refused a message. */
export class MailFailed extends refusal(409, "MailFailed", "mail_failed") {}

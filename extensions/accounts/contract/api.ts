/**
 * The Auth table of the second document, declared once: the server handlers, the typed
 * client and /api/openapi.json all come from these two groups. `authPublic` needs no
 * session; every endpoint of `auth` sits behind the session middleware.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import { PageParams } from "../../../kernel/contract/page.ts"
import {
  AccessCode,
  AuthResponse,
  SessionState,
  Being,
  ChangePasswordRequest,
  EmailStatus,
  InviteEmail,
  InviteEmailRequest,
  LoginRequest,
  MintCodesRequest,
  Ok,
  PasswordResetRequest,
  RegisterRequest,
  Revoked,
  SessionItem,
  SetPasswordRequest,
  VerifyEmailRequest,
  WaitlistRequest,
  WaitlistRow
} from "./records.ts"
import { Authentication } from "./session.ts"

export class AuthPublicApi extends HttpApiGroup.make("authPublic")
  .annotate(
    OpenApi.Description,
    "Joining the node and getting back in without a session: registration with an access code, login, the " +
      "waitlist, e-mail verification and password reset. Rate class `auth` (`waitlist` for the waitlist)."
  )
  .add(
    HttpApiEndpoint.get("session", "/auth/session")
      .annotate(OpenApi.Summary, "Who is signed in, if anyone")
      .annotate(
        OpenApi.Description,
        "The session's being, or `being: null` without a valid session: always 200, so the web app learns who is " +
          "signed in without a 401 in a signed-out browser's console. Public; the global rate budget only."
      )
      .addSuccess(SessionState)
  )
  .add(
    HttpApiEndpoint.post("register", "/auth/register")
      .annotate(OpenApi.Summary, "Register with an access code")
      .annotate(
        OpenApi.Description,
        "Creates a being (the first human becomes the node's owner) and signs it in (sets the session cookie). " +
          "Public. Code redemption, the first-human check and handle/email uniqueness run in one transaction. " +
          "Refusals: 403 `invalid_access_code` (unknown or used code), 409 `handle_taken`, 409 `email_taken` (the " +
          "code is not spent)."
      )
      .annotate(RateClass, "auth")
      .setPayload(RegisterRequest)
      .addSuccess(AuthResponse)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.post("login", "/auth/login")
      .annotate(OpenApi.Summary, "Sign in")
      .annotate(
        OpenApi.Description,
        "Checks an email and password and sets the session cookie; answers the being. Public. Refusals: 401 " +
          "`invalid_credentials` (the same for an unknown email)."
      )
      .annotate(RateClass, "auth")
      .setPayload(LoginRequest)
      .addSuccess(AuthResponse)
  )
  .add(
    HttpApiEndpoint.post("joinWaitlist", "/auth/waitlist")
      .annotate(OpenApi.Summary, "Join the waitlist")
      .annotate(
        OpenApi.Description,
        "Asks the owner for an access code with an email, a name and why. Public; joining again with the same " +
          "address keeps the first entry and answers the same. Rate class `waitlist`."
      )
      .annotate(RateClass, "waitlist")
      .setPayload(WaitlistRequest)
      .addSuccess(Ok)
  )
  .add(
    HttpApiEndpoint.post("verifyEmail", "/auth/verify")
      .annotate(OpenApi.Summary, "Confirm an email address")
      .annotate(
        OpenApi.Description,
        "Spends a verification token mailed by `POST /api/auth/verify/send`. Public. Refusals: 400 " +
          "`invalid_token` (unknown, spent or expired)."
      )
      .annotate(RateClass, "auth")
      .setPayload(VerifyEmailRequest)
      .addSuccess(Ok)
  )
  .add(
    HttpApiEndpoint.post("requestPasswordReset", "/auth/password/reset/request")
      .annotate(OpenApi.Summary, "Ask for a password reset mail")
      .annotate(
        OpenApi.Description,
        "Mails a reset link to the address if it is a being's. Public; the same answer and timing for any " +
          "address, at most 3 mails per address an hour."
      )
      .annotate(RateClass, "auth")
      .setPayload(PasswordResetRequest)
      .addSuccess(Ok)
  )
  .add(
    HttpApiEndpoint.post("resetPassword", "/auth/password/reset")
      .annotate(OpenApi.Summary, "Set a new password with a reset token")
      .annotate(
        OpenApi.Description,
        "Spends the reset token and writes the new password in one transaction; every session of the being is " +
          "dropped and the address counts as confirmed. Public. Refusals: 400 `invalid_token`, 400 " +
          "`invalid_request` (a password that breaks the rules)."
      )
      .annotate(RateClass, "auth")
      .setPayload(SetPasswordRequest)
      .addSuccess(Ok)
  )
  .prefix("/api") {}

const CodeParam = Schema.Struct({ code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })
const IdParam = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

export class AuthApi extends HttpApiGroup.make("auth")
  .annotate(
    OpenApi.Description,
    "The signed-in being's account and sessions, and the owner's administration of accounts: access codes, " +
      "invites, the waitlist, suspension. Every route needs a session; the ones under codes, waitlist and beings " +
      "are the owner's only (403 `forbidden` for anyone else)."
  )
  .add(
    HttpApiEndpoint.get("me", "/auth/me")
      .annotate(OpenApi.Summary, "The signed-in being")
      .annotate(OpenApi.Description, "Answers the session's being. Any session.")
      .addSuccess(AuthResponse)
  )
  .add(
    HttpApiEndpoint.post("logout", "/auth/logout")
      .annotate(OpenApi.Summary, "Sign out")
      .annotate(OpenApi.Description, "Ends this session and clears the cookie. Any session.")
      .addSuccess(Ok)
  )
  .add(
    HttpApiEndpoint.post("logoutAll", "/auth/logout/all")
      .annotate(OpenApi.Summary, "Sign out everywhere")
      .annotate(
        OpenApi.Description,
        "Ends every session of the being, this one too, and answers how many. Any session."
      )
      .addSuccess(Revoked)
  )
  .add(
    HttpApiEndpoint.get("listSessions", "/auth/sessions")
      .annotate(OpenApi.Summary, "List the being's sessions")
      .annotate(
        OpenApi.Description,
        "The being's sessions with ids, creation and expiry, and which is the current one; never a token. Any " +
          "session."
      )
      .addSuccess(Schema.Array(SessionItem))
  )
  .add(
    HttpApiEndpoint.del("revokeOtherSessions", "/auth/sessions")
      .annotate(OpenApi.Summary, "End every other session")
      .annotate(OpenApi.Description, "Ends every session of the being but this one and answers how many. Any session.")
      .addSuccess(Revoked)
  )
  .add(
    HttpApiEndpoint.del("revokeSession", "/auth/sessions/:id")
      .annotate(OpenApi.Summary, "End one session")
      .annotate(
        OpenApi.Description,
        "Ends one of the being's own sessions. Any session. Refusals: 404 `not_found` for any id that is not one " +
          "of the caller's sessions."
      )
      .setPath(IdParam)
      .addSuccess(Revoked)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/auth/password")
      .annotate(OpenApi.Summary, "Change the password")
      .annotate(
        OpenApi.Description,
        "Checks the current password, writes the new one and drops every other session of the being. Any " +
          "session; rate class `auth`. Refusals: 403 `wrong_password` (also the loser of two racing changes), 400 " +
          "`invalid_request` (a new password that breaks the rules)."
      )
      .annotate(RateClass, "auth")
      .setPayload(ChangePasswordRequest)
      .addSuccess(Revoked)
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("emailStatus", "/auth/email")
      .annotate(OpenApi.Summary, "The address and whether it is confirmed")
      .annotate(OpenApi.Description, "The being's email and its verification state. Any session.")
      .addSuccess(EmailStatus)
  )
  .add(
    HttpApiEndpoint.post("sendVerification", "/auth/verify/send")
      .annotate(OpenApi.Summary, "Mail a verification link")
      .annotate(
        OpenApi.Description,
        "Mails a link to the session's own address. Any session. Refusals: 409 `email_not_configured` (no " +
          "SMTP_URL), 409 `mail_failed` (the mail server refused)."
      )
      .addSuccess(EmailStatus)
      .addError(Conflict.schema)
  )
  // Owner only from here on.
  .add(
    HttpApiEndpoint.get("listCodes", "/auth/codes")
      .annotate(OpenApi.Summary, "List access codes")
      .annotate(
        OpenApi.Description,
        "Every access code with its note and use, newest first, paged by `limit` (1..200, default 50) and " +
          "`offset`. Owner only (403 `forbidden`)."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(AccessCode))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("mintCodes", "/auth/codes")
      .annotate(OpenApi.Summary, "Mint access codes")
      .annotate(
        OpenApi.Description,
        "Mints 1 to 50 access codes with an optional note. Owner only (403 `forbidden`); rate class `owner`."
      )
      .annotate(RateClass, "owner")
      .setPayload(MintCodesRequest)
      .addSuccess(Schema.Array(AccessCode))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("listUnusedCodes", "/auth/codes/unused")
      .annotate(OpenApi.Summary, "List unused access codes")
      .annotate(
        OpenApi.Description,
        "The access codes nobody has registered with yet, newest first, paged by `limit` (1..200, default 50) " +
          "and `offset`. Owner only (403 `forbidden`)."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(AccessCode))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteCode", "/auth/codes/:code")
      .annotate(OpenApi.Summary, "Delete an access code")
      .annotate(
        OpenApi.Description,
        "Deletes an unused access code. Owner only (403 `forbidden`). Refusals: 400 `code_used`, 400 " +
          "`bootstrap_code` (the owner's bootstrap code), 404 `not_found`."
      )
      .setPath(CodeParam)
      .addSuccess(Ok)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("sendInvite", "/auth/codes/send")
      .annotate(OpenApi.Summary, "Mail an invite with a new code")
      .annotate(
        OpenApi.Description,
        "Mints a code and mails it with a register link to the address. Owner only (403 `forbidden`); rate class " +
          "`owner`. Refusals: 409 `email_not_configured`, 409 `mail_failed`."
      )
      .annotate(RateClass, "owner")
      .setPayload(InviteEmailRequest)
      .addSuccess(InviteEmail)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(
    HttpApiEndpoint.get("listInvites", "/auth/codes/sent")
      .annotate(OpenApi.Summary, "List the invites sent")
      .annotate(
        OpenApi.Description,
        "The invites mailed, each with its code only as a mask, whether it was sent and spent, newest first, " +
          "paged by `limit` (1..200, default 50) and `offset`. Owner only (403 `forbidden`)."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(InviteEmail))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("listWaitlist", "/auth/waitlist")
      .annotate(OpenApi.Summary, "List the waitlist")
      .annotate(
        OpenApi.Description,
        "The waitlist entries, oldest first, paged by `limit` (1..200, default 50) and `offset`. Owner only " +
          "(403 `forbidden`)."
      )
      .setUrlParams(PageParams)
      .addSuccess(Schema.Array(WaitlistRow))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("downloadWaitlist", "/auth/waitlist.csv")
      .annotate(OpenApi.Summary, "Download the waitlist as CSV")
      .annotate(
        OpenApi.Description,
        "The waitlist as RFC 4180 CSV (header `email,name,why,createdAt`, as an attachment); a cell a " +
          "spreadsheet would run gets a leading quote. Owner only (403 `forbidden`)."
      )
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" }))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("listBeings", "/auth/beings")
      .annotate(OpenApi.Summary, "List the accounts")
      .annotate(OpenApi.Description, "Every being's account, for the admin place. Owner only (403 `forbidden`).")
      .addSuccess(Schema.Array(Being))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.post("suspend", "/auth/beings/:id/suspend")
      .annotate(OpenApi.Summary, "Suspend an account")
      .annotate(
        OpenApi.Description,
        "Makes the being's password match nothing and drops its sessions. Owner only (403 `forbidden`). " +
          "Refusals: 400 `cannot_suspend_owner`, 404 `not_found`."
      )
      .setPath(IdParam)
      .addSuccess(Being)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("unsuspend", "/auth/beings/:id/unsuspend")
      .annotate(OpenApi.Summary, "Lift a suspension")
      .annotate(
        OpenApi.Description,
        "Restores the being's password. Owner only (403 `forbidden`). Refusals: 404 `not_found`."
      )
      .setPath(IdParam)
      .addSuccess(Being)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api") {}

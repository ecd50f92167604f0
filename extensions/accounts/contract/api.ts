/**
 * The Auth table of the second document, declared once: the server handlers, the typed
 * client and /api/openapi.json all come from these two groups. `authPublic` needs no
 * session; every endpoint of `auth` sits behind the session middleware.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as HttpApiSchema from "@effect/platform/HttpApiSchema"
import * as Schema from "effect/Schema"
import { RateClass } from "../../../kernel/contract/endpoint-policy.ts"
import { Conflict, Forbidden, InvalidRequest, NotFound } from "../../../kernel/contract/errors.ts"
import {
  AccessCode,
  AuthResponse,
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
  .add(
    HttpApiEndpoint.post("register", "/auth/register")
      .annotate(RateClass, "auth")
      .setPayload(RegisterRequest)
      .addSuccess(AuthResponse)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(HttpApiEndpoint.post("login", "/auth/login").annotate(RateClass, "auth").setPayload(LoginRequest).addSuccess(AuthResponse))
  .add(HttpApiEndpoint.post("joinWaitlist", "/auth/waitlist").annotate(RateClass, "waitlist").setPayload(WaitlistRequest).addSuccess(Ok))
  .add(HttpApiEndpoint.post("verifyEmail", "/auth/verify").annotate(RateClass, "auth").setPayload(VerifyEmailRequest).addSuccess(Ok))
  .add(
    HttpApiEndpoint.post("requestPasswordReset", "/auth/password/reset/request")
      .annotate(RateClass, "auth")
      .setPayload(PasswordResetRequest)
      .addSuccess(Ok)
  )
  .add(
    HttpApiEndpoint.post("resetPassword", "/auth/password/reset").annotate(RateClass, "auth").setPayload(SetPasswordRequest).addSuccess(Ok)
  )
  .prefix("/api")
{}

const CodeParam = Schema.Struct({ code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })
const IdParam = Schema.Struct({ id: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)) })

export class AuthApi extends HttpApiGroup.make("auth")
  .add(HttpApiEndpoint.get("me", "/auth/me").addSuccess(AuthResponse))
  .add(HttpApiEndpoint.post("logout", "/auth/logout").addSuccess(Ok))
  .add(HttpApiEndpoint.post("logoutAll", "/auth/logout/all").addSuccess(Revoked))
  .add(HttpApiEndpoint.get("listSessions", "/auth/sessions").addSuccess(Schema.Array(SessionItem)))
  .add(HttpApiEndpoint.del("revokeOtherSessions", "/auth/sessions").addSuccess(Revoked))
  .add(
    HttpApiEndpoint.del("revokeSession", "/auth/sessions/:id").setPath(IdParam).addSuccess(Revoked).addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/auth/password")
      .annotate(RateClass, "auth")
      .setPayload(ChangePasswordRequest)
      .addSuccess(Revoked)
      .addError(Forbidden.schema)
  )
  .add(HttpApiEndpoint.get("emailStatus", "/auth/email").addSuccess(EmailStatus))
  .add(HttpApiEndpoint.post("sendVerification", "/auth/verify/send").addSuccess(EmailStatus).addError(Conflict.schema))
  // Owner only from here on.
  .add(HttpApiEndpoint.get("listCodes", "/auth/codes").addSuccess(Schema.Array(AccessCode)).addError(Forbidden.schema))
  .add(
    HttpApiEndpoint.post("mintCodes", "/auth/codes")
      .annotate(RateClass, "owner")
      .setPayload(MintCodesRequest)
      .addSuccess(Schema.Array(AccessCode))
      .addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.get("listUnusedCodes", "/auth/codes/unused").addSuccess(Schema.Array(AccessCode)).addError(Forbidden.schema)
  )
  .add(
    HttpApiEndpoint.del("deleteCode", "/auth/codes/:code")
      .setPath(CodeParam)
      .addSuccess(Ok)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .add(
    HttpApiEndpoint.post("sendInvite", "/auth/codes/send")
      .annotate(RateClass, "owner")
      .setPayload(InviteEmailRequest)
      .addSuccess(InviteEmail)
      .addError(Forbidden.schema)
      .addError(Conflict.schema)
  )
  .add(HttpApiEndpoint.get("listInvites", "/auth/codes/sent").addSuccess(Schema.Array(InviteEmail)).addError(Forbidden.schema))
  .add(HttpApiEndpoint.get("listWaitlist", "/auth/waitlist").addSuccess(Schema.Array(WaitlistRow)).addError(Forbidden.schema))
  .add(
    HttpApiEndpoint.get("downloadWaitlist", "/auth/waitlist.csv")
      .addSuccess(HttpApiSchema.Text({ contentType: "text/csv" }))
      .addError(Forbidden.schema)
  )
  .add(HttpApiEndpoint.get("listBeings", "/auth/beings").addSuccess(Schema.Array(Being)).addError(Forbidden.schema))
  .add(
    HttpApiEndpoint.post("suspend", "/auth/beings/:id/suspend")
      .setPath(IdParam)
      .addSuccess(Being)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
      .addError(InvalidRequest.schema)
  )
  .add(
    HttpApiEndpoint.post("unsuspend", "/auth/beings/:id/unsuspend")
      .setPath(IdParam)
      .addSuccess(Being)
      .addError(Forbidden.schema)
      .addError(NotFound.schema)
  )
  .middleware(Authentication)
  .prefix("/api")
{}

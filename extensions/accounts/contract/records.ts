/**
 * The records of accounts, codes, the waitlist and sessions as they travel on the wire.
 * Limits the spec leaves open (password length, handle shape) are decided here and listed
 * in docs/api.md.
 */
import * as Schema from "effect/Schema"

export const Id = Schema.String.pipe(Schema.minLength(1))
export const IsoDate = Schema.String

const trimmed = (max: number) => Schema.Trim.pipe(Schema.maxLength(max))

export const Email = Schema.Trim.pipe(
  Schema.maxLength(254),
  Schema.pattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, { message: () => "an email address like name@example.org" }),
  Schema.annotations({ title: "Email" })
)

/** bcrypt reads at most 72 bytes, so a longer password would be silently cut: refuse it instead. */
export const Password = Schema.String.pipe(
  Schema.minLength(8, { message: () => "a password of at least 8 characters" }),
  Schema.filter((value) => new TextEncoder().encode(value).length <= 72, {
    message: () => "a password of at most 72 bytes"
  })
)

export const Handle = Schema.Trim.pipe(
  Schema.pattern(/^[a-z0-9_]{3,30}$/, { message: () => "a handle of 3 to 30 lowercase letters, digits or _" })
)

export const Being = Schema.Struct({
  id: Id,
  handle: Schema.String,
  displayName: Schema.String,
  email: Schema.String,
  isOwner: Schema.Boolean,
  emailVerified: Schema.Boolean,
  suspended: Schema.Boolean,
  createdAt: IsoDate
})
export type Being = typeof Being.Type

export const AuthResponse = Schema.Struct({ being: Being })

/** Who the request's session is, if anyone: answered alike to a visitor, so a signed-out page sees no 401. */
export const SessionState = Schema.Struct({ being: Schema.NullOr(Being) })

export const RegisterRequest = Schema.Struct({
  email: Email,
  password: Password,
  handle: Handle,
  displayName: trimmed(80).pipe(Schema.minLength(1)),
  accessCode: trimmed(100).pipe(Schema.minLength(1))
})
export type RegisterRequest = typeof RegisterRequest.Type

export const LoginRequest = Schema.Struct({
  email: trimmed(254).pipe(Schema.minLength(1)),
  password: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000))
})

export const WaitlistRequest = Schema.Struct({
  email: Email,
  name: trimmed(120),
  why: trimmed(2000)
})

export const WaitlistRow = Schema.Struct({
  email: Schema.String,
  name: Schema.String,
  why: Schema.String,
  createdAt: IsoDate
})
export type WaitlistRow = typeof WaitlistRow.Type

export const AccessCode = Schema.Struct({
  code: Schema.String,
  createdBy: Id,
  usedBy: Schema.NullOr(Id),
  note: Schema.String,
  createdAt: IsoDate,
  usedAt: Schema.NullOr(IsoDate)
})
export type AccessCode = typeof AccessCode.Type

export const MintCodesRequest = Schema.Struct({
  count: Schema.Int.pipe(Schema.between(1, 50)),
  note: trimmed(200).pipe(Schema.optionalWith({ default: () => "" }))
})

export const EmailStatus = Schema.Struct({
  email: Schema.String,
  verified: Schema.Boolean,
  verifiedAt: Schema.NullOr(IsoDate),
  pending: Schema.Boolean,
  emailConfigured: Schema.Boolean
})
export type EmailStatus = typeof EmailStatus.Type

export const Token = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200))
export const VerifyEmailRequest = Schema.Struct({ token: Token })
export const PasswordResetRequest = Schema.Struct({ email: Email })
export const SetPasswordRequest = Schema.Struct({ token: Token, password: Password })

/** The current password is only compared, so it is bounded like a login's; the new one meets the rules. */
export const ChangePasswordRequest = Schema.Struct({
  currentPassword: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000)),
  newPassword: Password
})

export const InviteEmailRequest = Schema.Struct({
  email: Email,
  note: trimmed(200).pipe(Schema.optionalWith({ default: () => "" }))
})

/** An invitation sent by mail: the code is shown only as a mask. */
export const InviteEmail = Schema.Struct({
  id: Id,
  email: Schema.String,
  note: Schema.String,
  codeMask: Schema.String,
  sent: Schema.Boolean,
  error: Schema.NullOr(Schema.String),
  spent: Schema.Boolean,
  createdAt: IsoDate
})
export type InviteEmail = typeof InviteEmail.Type

export const SessionItem = Schema.Struct({
  id: Id,
  createdAt: IsoDate,
  expiresAt: IsoDate,
  current: Schema.Boolean
})

export const Ok = Schema.Struct({ ok: Schema.Literal(true) })
export const Revoked = Schema.Struct({ ok: Schema.Literal(true), revoked: Schema.Int })

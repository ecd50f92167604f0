/**
 * The directory (docs/federation.md "The directory"): a node that runs as one keeps, for each
 * node that registered with it, the node's did, the endpoint it advertises and the handles it
 * lists, and answers a handle with a record it signs, so a resolver checks it against the
 * directory's pinned did. Registration is a document the node signs, addressed to the directory.
 * Plain schemas only: the HTTP contract and the browser import this.
 */
import * as Schema from "effect/Schema"
import { Did, Digest, signed } from "./wire.ts"

/** A handle as beings have them: letters, digits, dots, dashes and underscores. */
export const DirectoryHandle = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/))

/** What a node asks a directory to list: signed by the node, for one directory (`aud`). */
export const RegistrationPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.directory.registration"),
  did: Did,
  aud: Did,
  endpoint: Schema.String.pipe(Schema.maxLength(2048)),
  handles: Schema.Array(DirectoryHandle).pipe(Schema.maxItems(8)),
  issuedAt: Schema.String.pipe(Schema.maxLength(40))
})
export const SignedRegistration = signed(RegistrationPayload)
export type SignedRegistration = typeof SignedRegistration.Type

/** The most credits a directory may grant one node (its setting's bound, and what a node accepts). */
export const MAX_REGISTRATION_CREDITS = 1_000_000

/**
 * What the directory signs when it lists a node: the registration's digest, until when, which
 * handles, and the credits it grants (once per did, at its first registration listing a handle; 0 after).
 */
export const RegistrationReceiptPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.directory.receipt"),
  did: Did,
  aud: Did,
  about: Digest,
  handles: Schema.Array(DirectoryHandle),
  credits: Schema.Int.pipe(Schema.between(0, MAX_REGISTRATION_CREDITS)),
  expiresAt: Schema.String.pipe(Schema.maxLength(40)),
  issuedAt: Schema.String.pipe(Schema.maxLength(40))
})
export const SignedRegistrationReceipt = signed(RegistrationReceiptPayload)

export const RegistrationRefusal = Schema.Literal(
  "not_directory",
  "wrong_audience",
  "bad_signature",
  "stale",
  "bad_endpoint",
  "handle_taken"
)
export type RegistrationRefusal = typeof RegistrationRefusal.Type

/** The answer to a registration, always HTTP 200. */
export const RegistrationAnswer = Schema.Struct({
  accepted: Schema.Boolean,
  code: Schema.NullOr(RegistrationRefusal),
  reason: Schema.String,
  receipt: Schema.NullOr(SignedRegistrationReceipt)
})
export type RegistrationAnswer = typeof RegistrationAnswer.Type

export const ResolveRequest = Schema.Struct({ handle: Schema.String.pipe(Schema.maxLength(80)) })

/** A handle's record, signed by the directory: which node lists it, where that node says it is. */
export const DirectoryEntryPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.directory.entry"),
  did: Did,
  handle: DirectoryHandle,
  node: Did,
  endpoint: Schema.String.pipe(Schema.maxLength(2048)),
  expiresAt: Schema.String.pipe(Schema.maxLength(40)),
  issuedAt: Schema.String.pipe(Schema.maxLength(40))
})
export const SignedDirectoryEntry = signed(DirectoryEntryPayload)
export type SignedDirectoryEntry = typeof SignedDirectoryEntry.Type

/** The answer to a resolve, always HTTP 200: the entry, or null and why. */
export const Resolution = Schema.Struct({
  found: Schema.Boolean,
  reason: Schema.String,
  entry: Schema.NullOr(SignedDirectoryEntry)
})
export type Resolution = typeof Resolution.Type

/** The owner's "add a peer by handle": resolved at this node's directory, then the ordinary add-peer. */
export const AddPeerByHandle = Schema.Struct({
  handle: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(80)),
  name: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(80)))
})

/**
 * The relay's documents and records (docs/federation.md "The relay"): a node that runs as a relay
 * holds sealed envelopes for the nodes enrolled with it, and hands them over to exactly the node
 * that proves its key. Enrolment and collection carry the same proof as a peer's collect (fresh
 * challenges to the relay and an attestation about the first); a deposit is a sealed envelope
 * filed under its audience. Plain schemas only: the HTTP contract and the browser import this.
 */
import * as Schema from "effect/Schema"
import {
  Did,
  Digest,
  SignedAttestation,
  SignedChallenge,
  SignedNodeDescriptor,
  MAX_COLLECT_CHALLENGES
} from "./wire.ts"

/** What a relay holds for one enrolled node: how many envelopes, how large each, for how long. */
export const RelayLimits = Schema.Struct({
  maxQueued: Schema.Int,
  maxDocumentBytes: Schema.Int,
  /** Seconds a deposited envelope is held before it is dropped uncollected. */
  holdSeconds: Schema.Int
})
export type RelayLimits = typeof RelayLimits.Type

/**
 * The owner's view of this node's own relay (SVC_RELAY_ENDPOINT): null relayDid with an endpoint = enrolment has not
 * worked.
 */
export const NodeRelayState = Schema.Struct({
  endpoint: Schema.NullOr(Schema.String),
  relayDid: Schema.NullOr(Schema.String),
  enrolled: Schema.Boolean,
  enrolledAt: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  limits: Schema.NullOr(RelayLimits),
  /** Envelopes this node's courier left at a peer's relay. */
  deposited: Schema.Int,
  /** Envelopes this node collected from its own relay (each ran through the deliver ladder). */
  collected: Schema.Int,
  lastError: Schema.NullOr(Schema.String)
})
export type NodeRelayState = typeof NodeRelayState.Type

/**
 * What an enrolment came to: the relay's did, the mailbox (always the enrolled node's own did), the limits and how many
 * envelopes wait.
 */
export const RelayEnrolment = Schema.Struct({
  v: Schema.Literal(1),
  relay: Schema.NullOr(Did),
  mailbox: Schema.NullOr(Did),
  limits: Schema.NullOr(RelayLimits),
  expiresAt: Schema.NullOr(Schema.String),
  held: Schema.Int,
  accepted: Schema.Boolean,
  reason: Schema.String
})
export type RelayEnrolment = typeof RelayEnrolment.Type

/**
 * The enrolling node's proof (the shape of a PeerCollect without `ack`): its descriptor, 1..8
 * fresh challenges to the relay, its attestation about the first.
 */
export const RelayEnrol = Schema.Struct({
  v: Schema.Literal(1),
  protocol: Schema.Int.pipe(Schema.between(1, 99)),
  descriptor: SignedNodeDescriptor,
  attestation: SignedAttestation,
  challenges: Schema.Array(SignedChallenge).pipe(Schema.minItems(1), Schema.maxItems(MAX_COLLECT_CHALLENGES))
})
export type RelayEnrol = typeof RelayEnrol.Type

/**
 * The relay's answer on the wire: the enrolment, and, when it accepted, its descriptor and its
 * attestation about the enrolling node's first challenge, which is how the node knows the relay
 * holds the key of the did it pins.
 */
export const RelayEnrolmentAnswer = Schema.Struct({
  ...RelayEnrolment.fields,
  node: Schema.NullOr(SignedNodeDescriptor),
  attestation: Schema.NullOr(SignedAttestation)
})
export type RelayEnrolmentAnswer = typeof RelayEnrolmentAnswer.Type

/** Why a relay did not take a deposit (docs/api.md "Federation"). */
export const DepositRefusal = Schema.Literal(
  "malformed",
  "protocol_unsupported",
  "bad_descriptor",
  "not_enrolled",
  "too_large",
  "mailbox_full",
  "replayed"
)
export type DepositRefusal = typeof DepositRefusal.Type

/** The answer to a deposit, always HTTP 200; `digest` is the envelope's (what the collector acknowledges). */
export const DepositReceipt = Schema.Struct({
  accepted: Schema.Boolean,
  digest: Schema.NullOr(Digest),
  code: Schema.NullOr(DepositRefusal),
  reason: Schema.String,
  at: Schema.String
})
export type DepositReceipt = typeof DepositReceipt.Type

/**
 * Seeds: devices paired with this node (docs/federation.md "Seeds"). The owner pairs a seed by
 * its did; the seed knocks (unsigned) to learn its nonce and sequence, then sends signed beats
 * and signed delegated acts, each answered by a SeedReceipt carrying the next nonce. Plain
 * schemas only: the HTTP contract and the browser import this.
 */
import * as Schema from "effect/Schema"
import { Did, Signature } from "./wire.ts"

/** What a seed may be granted: a strict subset of a module's bridge capabilities; network is withheld. */
export const SeedGrant = Schema.Literal("signals", "storage")
export type SeedGrant = typeof SeedGrant.Type

export const SeedStatus = Schema.Literal("paired", "blocked")
export type SeedStatus = typeof SeedStatus.Type

/** The seed protocol this node speaks (the capability profile's `seedProtocol`). */
export const SEED_PROTOCOL = 1
/** A delegated act carries at most this many string args. */
export const MAX_SEED_ARGS = 3

export const SeedPairing = Schema.Struct({
  did: Schema.String,
  beingId: Schema.String,
  name: Schema.String,
  /** What kind of peer this is: `device` for every seed (other profiles are not shown yet). */
  profile: Schema.NullOr(Schema.String),
  grants: Schema.Array(SeedGrant),
  status: SeedStatus,
  /** The sequence number of the last document accepted as fresh. */
  seq: Schema.Int,
  beats: Schema.Int,
  acts: Schema.Int,
  refused: Schema.Int,
  pairedAt: Schema.String,
  lastSeenAt: Schema.NullOr(Schema.String),
  lastNote: Schema.NullOr(Schema.String),
  lastError: Schema.NullOr(Schema.String)
})
export type SeedPairing = typeof SeedPairing.Type

/** The grants, each once, in a fixed order. */
const Grants = Schema.Array(SeedGrant).pipe(Schema.maxItems(2))

export const PairSeed = Schema.Struct({
  did: Did,
  name: Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(80)),
  handle: Schema.optional(
    Schema.Trim.pipe(
      Schema.pattern(/^[a-z0-9_]{3,30}$/, { message: () => "a handle of 3 to 30 lowercase letters, digits or _" })
    )
  ),
  grants: Schema.optional(Grants)
})
export type PairSeed = typeof PairSeed.Type

export const SeedUpdate = Schema.Struct({
  name: Schema.optional(Schema.Trim.pipe(Schema.minLength(1), Schema.maxLength(80))),
  grants: Schema.optional(Grants),
  blocked: Schema.optional(Schema.Boolean)
})
export type SeedUpdate = typeof SeedUpdate.Type

export const SeedPath = Schema.Struct({ id: Schema.String.pipe(Schema.maxLength(100)) })

export const SeedRemoved = Schema.Struct({
  did: Schema.String,
  removed: Schema.Boolean,
  beingId: Schema.NullOr(Schema.String)
})
export type SeedRemoved = typeof SeedRemoved.Type

/** Why a beat or an act was refused, cheapest check first (docs/federation.md "Seeds"). */
export const SeedRefusalCode = Schema.Literal(
  "malformed",
  "protocol_unsupported",
  "wrong_audience",
  "bad_signature",
  "unknown_seed",
  "blocked",
  "replayed",
  "stale_nonce",
  "capability_withheld",
  "not_granted",
  "unknown_method",
  "bad_args",
  "bridge_refused",
  "busy"
)
export type SeedRefusalCode = typeof SeedRefusalCode.Type

/** Which freshness check decided: the nonce, the sequence, or none (refused before it, or not reached). */
export const SeedBasis = Schema.Literal("nonce", "sequence", "none")

export const SeedReceipt = Schema.Struct({
  accepted: Schema.Boolean,
  code: Schema.NullOr(SeedRefusalCode),
  reason: Schema.String,
  basis: SeedBasis,
  /** The seed's sequence number now: the next document must carry a greater one. 0 for anyone unknown. */
  seq: Schema.Int,
  /** The nonce the next document must carry; null for anyone unknown. */
  nonce: Schema.NullOr(Schema.String),
  at: Schema.String,
  /** What an accepted act answered (the bridge method's result); null otherwise. */
  result: Schema.NullOr(Schema.Unknown)
})
export type SeedReceipt = typeof SeedReceipt.Type

export const SeedKnock = Schema.Struct({
  v: Schema.Literal(1),
  protocol: Schema.Int,
  did: Schema.String.pipe(Schema.maxLength(100))
})
export type SeedKnock = typeof SeedKnock.Type

export const SeedGreeting = Schema.Struct({
  v: Schema.Literal(1),
  protocol: Schema.Int,
  /** This node's did: what a seed's documents name as `aud`. */
  node: Schema.String,
  nonce: Schema.NullOr(Schema.String),
  seq: Schema.Int,
  grants: Schema.Array(SeedGrant),
  accepted: Schema.Boolean,
  reason: Schema.String
})
export type SeedGreeting = typeof SeedGreeting.Type

const Nonce = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{22}$/))
const Seq = Schema.Int.pipe(Schema.between(1, Number.MAX_SAFE_INTEGER))

export const SeedBeatPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.seed.beat"),
  did: Did,
  aud: Did,
  seq: Seq,
  nonce: Nonce,
  note: Schema.String.pipe(Schema.maxLength(200))
})
export type SeedBeatPayload = typeof SeedBeatPayload.Type
export const SignedSeedBeat = Schema.Struct({ payload: SeedBeatPayload, signature: Signature })

export const SeedActPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.seed.act"),
  did: Did,
  aud: Did,
  seq: Seq,
  nonce: Nonce,
  capability: Schema.String.pipe(Schema.maxLength(40)),
  method: Schema.String.pipe(Schema.maxLength(64)),
  args: Schema.Array(Schema.String.pipe(Schema.maxLength(4000)))
})
export type SeedActPayload = typeof SeedActPayload.Type
export const SignedSeedAct = Schema.Struct({ payload: SeedActPayload, signature: Signature })

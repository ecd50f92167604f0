/**
 * The documents that cross the wire between nodes (docs/federation.md says each field). Every
 * signed document is `{ payload, signature }` and names its signer in `payload.did`; `type`
 * strings carry the app prefix `svc`; `v` is the document's version. Plain schemas only: the
 * HTTP contract and the browser import this.
 */
import * as Schema from "effect/Schema"

/** An Ed25519 did:key (`did:key:z6Mk…`). The shape only; the key itself is checked where it is used. */
export const Did = Schema.String.pipe(Schema.pattern(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]{40,50}$/), Schema.brand("Did"))
export type Did = typeof Did.Type

export const Base64Url = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]*$/))

/** An Ed25519 signature: 64 bytes, base64url without padding. */
export const Signature = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{86}$/))

/** A SHA-256 digest of a document's canonical JSON, base64url without padding. */
export const Digest = Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]{43}$/))

const Text = (max: number) => Schema.String.pipe(Schema.maxLength(max))
const Instant = Schema.String.pipe(Schema.maxLength(40))

export const signed = <P extends Schema.Schema.Any>(payload: P) => Schema.Struct({ payload, signature: Signature })

/** Protocol 1 (plaintext, accepted inbound only) and 2 (sealed, the only one sent). */
export const WireProtocol = Schema.Literal(1, 2)
export const CURRENT_PROTOCOL = 2

/** Who a node says it is: signed by the node's own key; a new field here costs a protocol bump. */
export const NodeDescriptorPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.node.descriptor"),
  did: Did,
  endpoint: Text(2048),
  label: Text(80),
  profile: Text(40),
  software: Text(80),
  serves: Schema.Array(Text(40)).pipe(Schema.maxItems(16)),
  protocol: WireProtocol,
  issuedAt: Instant
})
export const SignedNodeDescriptor = signed(NodeDescriptorPayload)
export type SignedNodeDescriptor = typeof SignedNodeDescriptor.Type

/** A fresh nonce for the audience to answer with an attestation: proves the key, not the address. */
export const ChallengePayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.challenge"),
  did: Did,
  aud: Did,
  nonce: Base64Url.pipe(Schema.length(22)),
  issuedAt: Instant
})
export const SignedChallenge = signed(ChallengePayload)
export type SignedChallenge = typeof SignedChallenge.Type

/** A node's statement about one document, named by its digest (a challenge, a message). */
export const AttestationPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.attestation"),
  did: Did,
  aud: Did,
  about: Digest,
  issuedAt: Instant
})
export const SignedAttestation = signed(AttestationPayload)
export type SignedAttestation = typeof SignedAttestation.Type

/** A node vouching that a being's did lives on it. */
export const PassportPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.passport"),
  did: Did,
  subject: Did,
  handle: Text(64),
  issuedAt: Instant
})
export const SignedPassport = signed(PassportPayload)
export type SignedPassport = typeof SignedPassport.Type

export const MAX_MESSAGE_BODY = 8000

/** A being's direct message to a remote being, signed by its author's own key. */
export const MessagePayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.message"),
  did: Did,
  to: Did,
  id: Text(64).pipe(Schema.minLength(1)),
  body: Text(MAX_MESSAGE_BODY),
  at: Instant
})
export const SignedMessage = signed(MessagePayload)
export type SignedMessage = typeof SignedMessage.Type

export const MAX_POST_BODY = 1000

/** A post on its author's node's square, sent to the peers that node publishes to; signed by the author being. */
export const PostPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.post"),
  did: Did,
  /** The post's id on its author's node (a retraction names it). */
  id: Text(64).pipe(Schema.minLength(1)),
  /** The name the author posted under. */
  name: Text(80),
  body: Text(MAX_POST_BODY),
  at: Instant
})
export const SignedPost = signed(PostPayload)
export type SignedPost = typeof SignedPost.Type

/** A post taken back (deleted, or hidden by its node's moderation): signed by the post's author being. */
export const RetractionPayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.retraction"),
  did: Did,
  /** The retracted post's id (its `svc.post` id). */
  id: Text(64).pipe(Schema.minLength(1)),
  at: Instant
})
export const SignedRetraction = signed(RetractionPayload)
export type SignedRetraction = typeof SignedRetraction.Type

/** The document an envelope carries: a direct message, a square post, or a post's retraction. */
export const SignedDocument = Schema.Union(SignedMessage, SignedPost, SignedRetraction)
export type SignedDocument = typeof SignedDocument.Type

/**
 * What a seal holds, or a protocol-1 envelope carries in the clear: the four signatures' three
 * inner documents. `message` is the carried document whatever its type (the name is protocol 2's).
 */
export const EnvelopeBody = Schema.Struct({
  message: SignedDocument,
  passport: SignedPassport,
  attestation: SignedAttestation
})
export type EnvelopeBody = typeof EnvelopeBody.Type

export const SealAlg = Schema.Literal("X25519-HKDF-SHA256-A256GCM")
export const SealSchema = Schema.Struct({
  v: Schema.Literal(1),
  alg: SealAlg,
  epk: Base64Url.pipe(Schema.length(43)),
  ct: Base64Url.pipe(Schema.minLength(38))
})

export const SealedEnvelope = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.envelope.sealed"),
  protocol: Schema.Literal(2),
  descriptor: SignedNodeDescriptor,
  audience: Did,
  seal: SealSchema
})
export type SealedEnvelope = typeof SealedEnvelope.Type

export const PlainEnvelope = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.envelope"),
  protocol: Schema.Literal(1),
  descriptor: SignedNodeDescriptor,
  audience: Did,
  body: EnvelopeBody
})
export type PlainEnvelope = typeof PlainEnvelope.Type

export const Envelope = Schema.Union(SealedEnvelope, PlainEnvelope)
export type Envelope = typeof Envelope.Type

/** The handshake's opening, from the node that dials. */
export const PeerHello = Schema.Struct({
  v: Schema.Literal(1),
  protocol: Schema.Int.pipe(Schema.between(1, 99)),
  descriptor: SignedNodeDescriptor,
  challenge: SignedChallenge
})
export type PeerHello = typeof PeerHello.Type

/**
 * The answer: the answering node's descriptor, its attestation about the hello's challenge, and a challenge of its own.
 */
export const PeerGreeting = Schema.Struct({
  v: Schema.Literal(1),
  protocol: Schema.Int,
  descriptor: Schema.NullOr(SignedNodeDescriptor),
  attestation: Schema.NullOr(SignedAttestation),
  challenge: Schema.NullOr(SignedChallenge),
  accepted: Schema.Boolean,
  reason: Schema.String
})
export type PeerGreeting = typeof PeerGreeting.Type

/** What checking one signed document found. */
export const DocumentCheck = Schema.Struct({
  type: Schema.NullOr(Schema.String),
  signer: Schema.NullOr(Schema.String),
  digest: Schema.NullOr(Digest),
  valid: Schema.Boolean,
  reason: Schema.NullOr(Schema.String)
})
export type DocumentCheck = typeof DocumentCheck.Type

/** Deliver's refusals, cheapest first (docs/api.md "Federation"). */
export const RefusalCode = Schema.Literal(
  "malformed",
  "protocol_unsupported",
  "wrong_audience",
  "unknown_peer",
  "blocked_peer",
  "bad_descriptor",
  "unsealable",
  "bad_signature",
  "passport_mismatch",
  "bad_attestation",
  "wrong_recipient",
  "seed_recipient",
  "replayed"
)
export type RefusalCode = typeof RefusalCode.Type

export const DeliveryReceipt = Schema.Struct({
  accepted: Schema.Boolean,
  digest: Schema.NullOr(Digest),
  code: Schema.NullOr(RefusalCode),
  reason: Schema.String,
  at: Schema.String,
  check: Schema.NullOr(DocumentCheck)
})
export type DeliveryReceipt = typeof DeliveryReceipt.Type

/** One wire facility a node runs: its name, its path under the node's endpoint, its protocol. */
export const NodeFacility = Schema.Struct({ name: Text(40), path: Text(200), protocol: Schema.Int })
export type NodeFacility = typeof NodeFacility.Type

export const CapabilityProfilePayload = Schema.Struct({
  v: Schema.Literal(1),
  type: Schema.Literal("svc.node.capabilities"),
  did: Did,
  profile: Schema.String,
  runs: Schema.Array(NodeFacility),
  delegatesTo: Schema.NullOr(Did),
  fronts: Schema.Array(Did),
  seedProtocol: Schema.Int,
  limits: Schema.Struct({ maxDocumentBytes: Schema.Int, maxQueued: Schema.Int }),
  issuedAt: Schema.String,
  expiresAt: Schema.String
})
export const SignedCapabilityProfile = signed(CapabilityProfilePayload)
export type SignedCapabilityProfile = typeof SignedCapabilityProfile.Type

/** Collect's bounds (the second document's limits): challenges 1..8, acknowledged digests 0..32. */
export const MAX_COLLECT_CHALLENGES = 8
export const MAX_COLLECT_ACKS = 32

/**
 * A node nobody can dial asks a peer for what waits for it (docs/federation.md "Collect"): its
 * descriptor, fresh challenges of its own to the holder, its attestation about the first, and the
 * digests of what it received from the last collection.
 */
export const PeerCollect = Schema.Struct({
  v: Schema.Literal(1),
  protocol: Schema.Int.pipe(Schema.between(1, 99)),
  descriptor: SignedNodeDescriptor,
  attestation: SignedAttestation,
  challenges: Schema.Array(SignedChallenge).pipe(Schema.minItems(1), Schema.maxItems(MAX_COLLECT_CHALLENGES)),
  ack: Schema.Array(Digest).pipe(Schema.maxItems(MAX_COLLECT_ACKS))
})
export type PeerCollect = typeof PeerCollect.Type

export const PeerCollection = Schema.Struct({
  v: Schema.Literal(1),
  protocol: Schema.Int,
  /** The holder's descriptor; null when it did not accept the collector. */
  node: Schema.NullOr(SignedNodeDescriptor),
  envelopes: Schema.Array(SealedEnvelope),
  remaining: Schema.Int,
  acked: Schema.Int,
  accepted: Schema.Boolean,
  reason: Schema.String
})
export type PeerCollection = typeof PeerCollection.Type

/**
 * The documents this node signs with its own key: its descriptor, challenges, attestations,
 * passports for its beings, and its capability profile (docs/federation.md says each field).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { CURRENT_PROTOCOL, type Did, type NodeFacility, type SignedCapabilityProfile } from "./contract/wire.ts"
import { NodeAddress } from "./contract/ports.ts"
import { SEED_PROTOCOL } from "./contract/seeds.ts"
import { FederationSettings } from "./settings.ts"
import { Identities, type BeingIdentity } from "./identities.ts"
import { relayFacilities } from "./relay/facilities.ts"
import { toBase64Url } from "./wire/encoding.ts"
import { signPayload } from "./wire/signed.ts"

/**
 * The peer wire facilities this node runs (the descriptor's `serves`): the handshake, deliver, collect, the profile.
 */
export const facilities: ReadonlyArray<NodeFacility> = [
  { name: "peer.hello", path: "/api/federation/peer/hello", protocol: CURRENT_PROTOCOL },
  { name: "peer.deliver", path: "/api/federation/peer/deliver", protocol: CURRENT_PROTOCOL },
  { name: "peer.collect", path: "/api/federation/peer/collect", protocol: CURRENT_PROTOCOL },
  { name: "capabilities", path: "/api/federation/capabilities", protocol: 1 }
]

/** The seed wire facilities every node runs (docs/federation.md "Seeds"): a seed knocks, then beats and acts. */
export const seedFacilities: ReadonlyArray<NodeFacility> = [
  { name: "seed.knock", path: "/api/federation/seed/knock", protocol: SEED_PROTOCOL },
  { name: "seed.beat", path: "/api/federation/seed/beat", protocol: SEED_PROTOCOL },
  { name: "seed.act", path: "/api/federation/seed/act", protocol: SEED_PROTOCOL }
]

/**
 * What the profile says of relaying: whether this node is a relay, for whom, how many it holds each; and its own
 * relay's did.
 */
export interface RelayFacts {
  readonly relaying: boolean
  readonly fronts: ReadonlyArray<string>
  readonly maxQueued: number
  readonly delegatesTo: string | null
}

const PROFILE = "personal"
const PROFILE_LIFETIME_MS = 60 * 60 * 1000

/** A did this node made itself or checked: the brand says so. */
const asDid = (did: string) => did as Did

export class NodeDocuments extends Effect.Service<NodeDocuments>()("federation/NodeDocuments", {
  dependencies: [Identities.Default],
  effect: Effect.gen(function* () {
    const identities = yield* Identities
    const address = yield* NodeAddress
    const settings = yield* FederationSettings
    const node = identities.node
    const isoNow = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms).toISOString())

    const descriptor = Effect.map(isoNow, (issuedAt) =>
      signPayload(
        {
          v: 1 as const,
          type: "svc.node.descriptor" as const,
          did: asDid(node.did),
          endpoint: address.endpoint,
          label: address.label,
          profile: PROFILE,
          software: address.software,
          serves: facilities.map((facility) => facility.name),
          protocol: CURRENT_PROTOCOL as 2,
          issuedAt
        },
        node.secretKey
      )
    )

    const challenge = (aud: string) =>
      Effect.map(isoNow, (issuedAt) =>
        signPayload(
          {
            v: 1 as const,
            type: "svc.challenge" as const,
            did: asDid(node.did),
            aud: asDid(aud),
            nonce: toBase64Url(new Uint8Array(randomBytes(16))),
            issuedAt
          },
          node.secretKey
        )
      )

    const attestation = (aud: string, about: string) =>
      Effect.map(isoNow, (issuedAt) =>
        signPayload(
          { v: 1 as const, type: "svc.attestation" as const, did: asDid(node.did), aud: asDid(aud), about, issuedAt },
          node.secretKey
        )
      )

    const passport = (being: BeingIdentity) =>
      Effect.map(isoNow, (issuedAt) =>
        signPayload(
          {
            v: 1 as const,
            type: "svc.passport" as const,
            did: asDid(node.did),
            subject: asDid(being.did),
            handle: being.handle,
            issuedAt
          },
          node.secretKey
        )
      )

    /**
     * The signed profile: every facility this node runs (peer, seed, and a relay's too when it is one), the relay
     * it is reached through (`delegatesTo`, pinned) and the dids it relays for (`fronts`).
     */
    const capabilities = (relay: RelayFacts) =>
      Effect.map(
        Clock.currentTimeMillis,
        (ms): SignedCapabilityProfile =>
          signPayload(
            {
              v: 1 as const,
              type: "svc.node.capabilities" as const,
              did: asDid(node.did),
              profile: PROFILE,
              runs: [...facilities, ...seedFacilities, ...(relay.relaying ? relayFacilities : [])],
              delegatesTo: relay.delegatesTo === null ? null : asDid(relay.delegatesTo),
              fronts: relay.fronts.map(asDid),
              seedProtocol: SEED_PROTOCOL,
              limits: { maxDocumentBytes: settings.maxDocumentBytes, maxQueued: relay.maxQueued },
              issuedAt: new Date(ms).toISOString(),
              expiresAt: new Date(ms + PROFILE_LIFETIME_MS).toISOString()
            },
            node.secretKey
          )
      )

    return { nodeDid: node.did, descriptor, challenge, attestation, passport, capabilities } as const
  })
}) {}

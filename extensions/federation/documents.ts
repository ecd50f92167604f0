/**
 * The documents this node signs with its own key: its descriptor, challenges, attestations,
 * passports for its beings, and its capability profile (docs/federation.md says each field).
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { CURRENT_PROTOCOL, type Did, type NodeFacility, type SignedCapabilityProfile } from "./contract/wire.ts"
import { NodeAddress } from "./contract/ports.ts"
import { FederationSettings } from "./settings.ts"
import { Identities, type BeingIdentity } from "./identities.ts"
import { toBase64Url } from "./wire/encoding.ts"
import { signPayload } from "./wire/signed.ts"

/** The wire facilities this node runs: the handshake, deliver, collect, the profile. */
export const facilities: ReadonlyArray<NodeFacility> = [
  { name: "peer.hello", path: "/api/federation/peer/hello", protocol: CURRENT_PROTOCOL },
  { name: "peer.deliver", path: "/api/federation/peer/deliver", protocol: CURRENT_PROTOCOL },
  { name: "peer.collect", path: "/api/federation/peer/collect", protocol: CURRENT_PROTOCOL },
  { name: "capabilities", path: "/api/federation/capabilities", protocol: 1 }
]

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
      signPayload({
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
      }, node.secretKey))

    const challenge = (aud: string) =>
      Effect.map(isoNow, (issuedAt) =>
        signPayload({
          v: 1 as const,
          type: "svc.challenge" as const,
          did: asDid(node.did),
          aud: asDid(aud),
          nonce: toBase64Url(new Uint8Array(randomBytes(16))),
          issuedAt
        }, node.secretKey))

    const attestation = (aud: string, about: string) =>
      Effect.map(isoNow, (issuedAt) =>
        signPayload({ v: 1 as const, type: "svc.attestation" as const, did: asDid(node.did), aud: asDid(aud), about, issuedAt }, node.secretKey))

    const passport = (being: BeingIdentity) =>
      Effect.map(isoNow, (issuedAt) =>
        signPayload({
          v: 1 as const,
          type: "svc.passport" as const,
          did: asDid(node.did),
          subject: asDid(being.did),
          handle: being.handle,
          issuedAt
        }, node.secretKey))

    const capabilities = Effect.map(Clock.currentTimeMillis, (ms): SignedCapabilityProfile =>
      signPayload({
        v: 1 as const,
        type: "svc.node.capabilities" as const,
        did: asDid(node.did),
        profile: PROFILE,
        runs: facilities,
        // No relay and no fronting until the relay lands (part two).
        delegatesTo: null,
        fronts: [],
        seedProtocol: 1,
        limits: { maxDocumentBytes: settings.maxDocumentBytes, maxQueued: 0 },
        issuedAt: new Date(ms).toISOString(),
        expiresAt: new Date(ms + PROFILE_LIFETIME_MS).toISOString()
      }, node.secretKey))

    return { nodeDid: node.did, descriptor, challenge, attestation, passport, capabilities } as const
  })
}) {}

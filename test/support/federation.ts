/**
 * Federation documents made by hand, for tests that play a node (a stranger, a tamperer, a
 * peer whose key they read from its database): the same wire functions the node uses.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { randomBytes } from "node:crypto"
import { keyPairOf, newKeyPair, type KeyPair } from "../../extensions/federation/wire/did-key.ts"
import { fromBase64Url, toBase64Url, utf8 } from "../../extensions/federation/wire/encoding.ts"
import { canonical } from "../../extensions/federation/wire/jcs.ts"
import { sealTo } from "../../extensions/federation/wire/seal.ts"
import { digestOf, signPayload } from "../../extensions/federation/wire/signed.ts"
import { Client, refused, run, type Registered, type TestNode } from "./node.ts"

export { newKeyPair, type KeyPair }

const keyRow = (node: TestNode, where: "node" | { readonly beingId: string }) =>
  node.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      where === "node"
        ? sql<{ secret: string }>`SELECT secret FROM federation_keys WHERE role = 'node'`
        : sql<{ secret: string }>`SELECT secret FROM federation_keys WHERE being_id = ${where.beingId}`
    )
  )

/** A node's own key pair, read from its database (no route exports it). */
export const nodeKeyOf = async (node: TestNode): Promise<KeyPair> =>
  keyPairOf(fromBase64Url((await keyRow(node, "node"))[0]!.secret)!)

/** A being's key pair on a node, or null when it has none yet. */
export const beingKeyOf = async (node: TestNode, beingId: string): Promise<KeyPair | null> => {
  const [row] = await keyRow(node, { beingId })
  return row === undefined ? null : keyPairOf(fromBase64Url(row.secret)!)
}

const at = () => new Date().toISOString()

export const descriptorOf = (node: KeyPair, endpoint = "http://127.0.0.1:1") =>
  signPayload(
    {
      v: 1,
      type: "svc.node.descriptor",
      did: node.did,
      endpoint,
      label: "test",
      profile: "personal",
      software: "test/1",
      serves: ["peer.deliver"],
      protocol: 2,
      issuedAt: at()
    },
    node.secretKey
  )

export const helloFrom = (node: KeyPair, audience: string) => ({
  v: 1,
  protocol: 2,
  descriptor: descriptorOf(node),
  challenge: signPayload(
    {
      v: 1,
      type: "svc.challenge",
      did: node.did,
      aud: audience,
      nonce: toBase64Url(new Uint8Array(16).fill(7)),
      issuedAt: at()
    },
    node.secretKey
  )
})

export interface EnvelopeParts {
  /** The sending node (signs descriptor, passport, attestation). */
  readonly node: KeyPair
  /** The author being (signs the message). */
  readonly author: KeyPair
  /** The receiving node's did: the audience. */
  readonly audience: string
  /** The recipient being's did. */
  readonly to: string
  readonly body?: string
  /** Who the passport names; the author unless a test says otherwise. */
  readonly passportSubject?: string
  /** What the attestation is about; the message's digest unless a test says otherwise. */
  readonly attestAbout?: string
}

export const envelopeBody = (parts: EnvelopeParts) => {
  const message = signPayload(
    {
      v: 1,
      type: "svc.message",
      did: parts.author.did,
      to: parts.to,
      id: toBase64Url(utf8(String(Math.random()))).slice(0, 16),
      body: parts.body ?? "Hello from the other node.",
      at: at()
    },
    parts.author.secretKey
  )
  const passport = signPayload(
    {
      v: 1,
      type: "svc.passport",
      did: parts.node.did,
      subject: parts.passportSubject ?? parts.author.did,
      handle: "author",
      issuedAt: at()
    },
    parts.node.secretKey
  )
  const attestation = signPayload(
    {
      v: 1,
      type: "svc.attestation",
      did: parts.node.did,
      aud: parts.audience,
      about: parts.attestAbout ?? digestOf(message),
      issuedAt: at()
    },
    parts.node.secretKey
  )
  return { message, passport, attestation, digest: digestOf(message) }
}

/** A protocol-2 envelope: the body sealed to the audience. */
export const sealedEnvelope = (parts: EnvelopeParts) => {
  const { digest, ...body } = envelopeBody(parts)
  return {
    digest,
    envelope: {
      v: 1,
      type: "svc.envelope.sealed",
      protocol: 2,
      descriptor: descriptorOf(parts.node),
      audience: parts.audience,
      seal: sealTo(parts.audience, utf8(canonical(body)), utf8(parts.audience))!
    }
  }
}

/** A protocol-1 envelope: the body in the clear. */
export const plainEnvelope = (parts: EnvelopeParts) => {
  const { digest, ...body } = envelopeBody(parts)
  return {
    digest,
    envelope: {
      v: 1,
      type: "svc.envelope",
      protocol: 1,
      descriptor: descriptorOf(parts.node),
      audience: parts.audience,
      body
    }
  }
}

/** A node's public capability profile (its did is `payload.did`). */
export const capabilitiesOf = (node: TestNode) => run(new Client(node.url).api.federationWire.capabilities())

/** A collect request from `node` to the holder `audience`: one fresh challenge, attested. */
export const collectRequest = (node: KeyPair, audience: string, ack: ReadonlyArray<string> = []) => {
  const challenge = signPayload(
    {
      v: 1,
      type: "svc.challenge",
      did: node.did,
      aud: audience,
      nonce: toBase64Url(new Uint8Array(randomBytes(16))),
      issuedAt: at()
    },
    node.secretKey
  )
  const attestation = signPayload(
    { v: 1, type: "svc.attestation", did: node.did, aud: audience, about: digestOf(challenge), issuedAt: at() },
    node.secretKey
  )
  return { v: 1, protocol: 2, descriptor: descriptorOf(node), attestation, challenges: [challenge], ack }
}

/**
 * A being's did, as its owner would read it out to a friend. An owner who registered after the
 * node started gets a key the first time a did must be looked up: a conversation opened with an
 * unknown did through no peer does that, and changes nothing (a 404).
 */
export const beingDidOf = async (node: TestNode, owner: Registered) => {
  const nowhere = await refused(
    owner.client.api.federation.openConversation({
      payload: { peerDid: newKeyPair().did as never, remoteDid: newKeyPair().did as never }
    })
  )
  if (nowhere.status !== 404) throw new Error(`expected a 404, got ${nowhere.status}`)
  return (await beingKeyOf(node, owner.being.id))!.did
}

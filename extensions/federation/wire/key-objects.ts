/**
 * The wire's raw 32-byte keys as node:crypto KeyObjects (issue 13: OpenSSL does the hot
 * primitives). node:crypto takes Ed25519 and X25519 keys only as DER or JWK, so a raw key is
 * wrapped in the fixed PKCS8 / SPKI prefix of its algorithm (RFC 8410). Making a KeyObject costs
 * about as much as a signature, so each is kept, in a bounded cache, per key.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto"

const der = (prefix: string) => Buffer.from(prefix, "hex")
/** RFC 8410 encodings: the prefix is followed by the raw 32 bytes. */
const prefixes = {
  ed25519Private: der("302e020100300506032b657004220420"),
  ed25519Public: der("302a300506032b6570032100"),
  x25519Private: der("302e020100300506032b656e04220420"),
  x25519Public: der("302a300506032b656e032100")
} as const

/** A map that forgets its oldest entry past `limit`: a node talks with a bounded set of peers. */
export const boundedCache = <V>(limit: number) => {
  const entries = new Map<string, V>()
  return (key: string, make: () => V): V => {
    const known = entries.get(key)
    if (known !== undefined) return known
    const made = make()
    if (entries.size >= limit) entries.delete(entries.keys().next().value!)
    entries.set(key, made)
    return made
  }
}

const keyOf = (raw: Uint8Array) => Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString("base64")

const wrapped = (prefix: Buffer, raw: Uint8Array) => Buffer.concat([prefix, raw])

const privateKeys = boundedCache<KeyObject>(256)
const publicKeys = boundedCache<KeyObject>(1024)

/** The Ed25519 private key of a 32-byte seed. */
export const ed25519PrivateKey = (seed: Uint8Array): KeyObject =>
  privateKeys(`ed:${keyOf(seed)}`, () =>
    createPrivateKey({ key: wrapped(prefixes.ed25519Private, seed), format: "der", type: "pkcs8" })
  )

/** The Ed25519 public key of its raw 32 bytes; throws when they are not a point's encoding. */
export const ed25519PublicKey = (raw: Uint8Array): KeyObject =>
  publicKeys(`ed:${keyOf(raw)}`, () =>
    createPublicKey({ key: wrapped(prefixes.ed25519Public, raw), format: "der", type: "spki" })
  )

/** The X25519 private key of its raw (clamped) 32 bytes. */
export const x25519PrivateKey = (raw: Uint8Array): KeyObject =>
  privateKeys(`x:${keyOf(raw)}`, () =>
    createPrivateKey({ key: wrapped(prefixes.x25519Private, raw), format: "der", type: "pkcs8" })
  )

/** An X25519 public key of its raw 32 bytes, not kept: a seal's ephemeral key is seen once. */
export const x25519PublicKeyOnce = (raw: Uint8Array): KeyObject =>
  createPublicKey({ key: wrapped(prefixes.x25519Public, raw), format: "der", type: "spki" })

/** The raw 32 bytes of an Ed25519 or X25519 key (the tail of its DER form). */
export const rawOf = (key: KeyObject): Uint8Array =>
  new Uint8Array(key.export({ format: "der", type: key.type === "private" ? "pkcs8" : "spki" }).subarray(-32))

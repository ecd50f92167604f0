/**
 * W3C did:key for Ed25519 (`did:key:z6Mk…`): the multicodec prefix 0xed 0x01 before the 32-byte
 * public key, base58btc with the multibase prefix `z`. The same key's X25519 form (its
 * birational map to Curve25519, RFC 7748) is what a seal to that did is made with, so one
 * address both signs and receives.
 */
import { ed25519 } from "@noble/curves/ed25519.js"
import { base58 } from "@scure/base"
import { createHash, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto"
import { boundedCache, ed25519PrivateKey, rawOf, x25519PrivateKey } from "./key-objects.ts"

const prefix = "did:key:z"
const ed25519Codec = [0xed, 0x01] as const

export const didOfPublicKey = (publicKey: Uint8Array): string => {
  const bytes = new Uint8Array(2 + publicKey.length)
  bytes.set(ed25519Codec)
  bytes.set(publicKey, 2)
  return `${prefix}${base58.encode(bytes)}`
}

/** The Ed25519 public key a did:key names, or null when it is not an Ed25519 did:key. */
export const publicKeyOfDid = (did: string): Uint8Array | null => {
  if (!did.startsWith(prefix) || did.length > 80) return null
  let bytes: Uint8Array
  try {
    bytes = base58.decode(did.slice(prefix.length))
  } catch {
    return null
  }
  if (bytes.length !== 34 || bytes[0] !== ed25519Codec[0] || bytes[1] !== ed25519Codec[1]) return null
  return bytes.slice(2)
}

export const isDidKey = (did: string): boolean => publicKeyOfDid(did) !== null

const montgomery = boundedCache<Uint8Array | null>(1024)

/**
 * The X25519 public key of an Ed25519 public key, or null when the point is not on the curve.
 * node:crypto has no Edwards→Montgomery map, so @noble's stays; it is kept per key, since a node
 * seals to the same few peers again and again.
 */
export const x25519PublicOf = (publicKey: Uint8Array): Uint8Array | null =>
  montgomery(Buffer.from(publicKey).toString("base64"), () => {
    try {
      return ed25519.utils.toMontgomery(publicKey)
    } catch {
      return null
    }
  })

/**
 * The X25519 secret of an Ed25519 secret key (its seed): the clamped first half of SHA-512(seed) (RFC 8032 §5.1.5, RFC
 * 7748 §5).
 */
export const x25519SecretOf = (secretKey: Uint8Array): Uint8Array => {
  const secret = new Uint8Array(createHash("sha512").update(secretKey).digest().subarray(0, 32))
  secret[0]! &= 248
  secret[31]! &= 127
  secret[31]! |= 64
  return secret
}

/** The X25519 pair a seal to this key's did opens with; made once per key, not once per seal. */
export interface SealingKey {
  readonly secret: Uint8Array
  readonly publicKey: Uint8Array
  /** `secret` as node:crypto's key, for the agreement. */
  readonly privateKey: KeyObject
}

export const sealingKeyOf = (secretKey: Uint8Array): SealingKey => {
  const secret = x25519SecretOf(secretKey)
  const privateKey = x25519PrivateKey(secret)
  return { secret, publicKey: rawOf(createPublicKey(privateKey)), privateKey }
}

export interface KeyPair {
  readonly secretKey: Uint8Array
  readonly publicKey: Uint8Array
  readonly did: string
}

export const newKeyPair = (): KeyPair => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519")
  const raw = rawOf(publicKey)
  return { secretKey: rawOf(privateKey), publicKey: raw, did: didOfPublicKey(raw) }
}

/** The pair of a stored secret key (the 32-byte seed). */
export const keyPairOf = (secretKey: Uint8Array): KeyPair => {
  const publicKey = rawOf(createPublicKey(ed25519PrivateKey(secretKey)))
  return { secretKey, publicKey, did: didOfPublicKey(publicKey) }
}

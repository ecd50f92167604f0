/**
 * W3C did:key for Ed25519 (`did:key:z6Mk…`): the multicodec prefix 0xed 0x01 before the 32-byte
 * public key, base58btc with the multibase prefix `z`. The same key's X25519 form (its
 * birational map to Curve25519, RFC 7748) is what a seal to that did is made with, so one
 * address both signs and receives.
 */
import { ed25519, x25519 } from "@noble/curves/ed25519.js"
import { base58 } from "@scure/base"

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

/** The X25519 public key of an Ed25519 public key, or null when the point is not on the curve. */
export const x25519PublicOf = (publicKey: Uint8Array): Uint8Array | null => {
  try {
    return ed25519.utils.toMontgomery(publicKey)
  } catch {
    return null
  }
}

/** The X25519 secret of an Ed25519 secret key (its seed): the clamped first half of SHA-512(seed). */
export const x25519SecretOf = (secretKey: Uint8Array): Uint8Array => ed25519.utils.toMontgomerySecret(secretKey)

/** The X25519 pair a seal to this key's did opens with; made once per key, not once per seal. */
export interface SealingKey {
  readonly secret: Uint8Array
  readonly publicKey: Uint8Array
}

export const sealingKeyOf = (secretKey: Uint8Array): SealingKey => {
  const secret = x25519SecretOf(secretKey)
  return { secret, publicKey: x25519.getPublicKey(secret) }
}

export interface KeyPair {
  readonly secretKey: Uint8Array
  readonly publicKey: Uint8Array
  readonly did: string
}

export const newKeyPair = (): KeyPair => {
  const { secretKey, publicKey } = ed25519.keygen()
  return { secretKey, publicKey, did: didOfPublicKey(publicKey) }
}

/** The pair of a stored secret key (the 32-byte seed). */
export const keyPairOf = (secretKey: Uint8Array): KeyPair => {
  const publicKey = ed25519.getPublicKey(secretKey)
  return { secretKey, publicKey, did: didOfPublicKey(publicKey) }
}

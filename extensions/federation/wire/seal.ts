/**
 * Sealing to a did:key (protocol 2), sign-then-encrypt: the signed inner document is encrypted to
 * the recipient's X25519 key (the Montgomery form of its Ed25519 did:key) with a fresh ephemeral
 * key, HKDF-SHA256 and AES-256-GCM. Opening a seal proves nothing about who made it (anyone can
 * seal to a public key); the signatures inside authenticate. No padding, no forward secrecy.
 *
 *   shared = X25519(ephemeral secret, recipient X25519 public)
 *   key    = HKDF-SHA256(ikm = shared, salt = epk ‖ recipient X25519 public, info = "svc.seal.v1", 32 bytes)
 *   ct     = base64url(nonce(12) ‖ AES-256-GCM(key, nonce, plaintext, aad))
 */
import { x25519 } from "@noble/curves/ed25519.js"
import { gcm } from "@noble/ciphers/aes.js"
import { hkdf } from "@noble/hashes/hkdf.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { randomBytes } from "node:crypto"
import { publicKeyOfDid, x25519PublicOf, type SealingKey } from "./did-key.ts"
import { fromBase64Url, toBase64Url, utf8 } from "./encoding.ts"

export const SEAL_ALG = "X25519-HKDF-SHA256-A256GCM"
const info = utf8("svc.seal.v1")

export interface Seal {
  readonly v: 1
  readonly alg: typeof SEAL_ALG
  /** The ephemeral X25519 public key, base64url. */
  readonly epk: string
  /** The 12-byte nonce, then the ciphertext and its 16-byte tag, base64url. */
  readonly ct: string
}

const concat = (a: Uint8Array, b: Uint8Array) => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a)
  out.set(b, a.length)
  return out
}

const sealKey = (shared: Uint8Array, epk: Uint8Array, recipient: Uint8Array) => hkdf(sha256, shared, concat(epk, recipient), info, 32)

/** Seals `plaintext` to `did`; `aad` (the envelope's audience) is bound but not hidden. Null: not a usable did. */
export const sealTo = (did: string, plaintext: Uint8Array, aad: Uint8Array): Seal | null => {
  const edPublic = publicKeyOfDid(did)
  const recipient = edPublic === null ? null : x25519PublicOf(edPublic)
  if (recipient === null) return null
  const ephemeral = x25519.keygen()
  const key = sealKey(x25519.getSharedSecret(ephemeral.secretKey, recipient), ephemeral.publicKey, recipient)
  const nonce = new Uint8Array(randomBytes(12))
  return { v: 1, alg: SEAL_ALG, epk: toBase64Url(ephemeral.publicKey), ct: toBase64Url(concat(nonce, gcm(key, nonce, aad).encrypt(plaintext))) }
}

/** The plaintext of a seal made to the holder of `key` (sealingKeyOf its Ed25519 seed), or null when it does not open. */
export const openSeal = (seal: Seal, key: SealingKey, aad: Uint8Array): Uint8Array | null => {
  const epk = fromBase64Url(seal.epk)
  const ct = fromBase64Url(seal.ct)
  if (seal.v !== 1 || seal.alg !== SEAL_ALG || epk === null || epk.length !== 32 || ct === null || ct.length < 12 + 16) return null
  try {
    const aead = sealKey(x25519.getSharedSecret(key.secret, epk), epk, key.publicKey)
    return gcm(aead, ct.subarray(0, 12), aad).decrypt(ct.subarray(12))
  } catch {
    return null
  }
}

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
import {
  createCipheriv,
  createDecipheriv,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject
} from "node:crypto"
import { publicKeyOfDid, x25519PublicOf, type SealingKey } from "./did-key.ts"
import { fromBase64Url, toBase64Url, utf8 } from "./encoding.ts"
import { boundedCache, rawOf, x25519PublicKeyOnce } from "./key-objects.ts"

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

const sealKey = (shared: Uint8Array, epk: Uint8Array, recipient: Uint8Array) =>
  Buffer.from(hkdfSync("sha256", shared, Buffer.concat([epk, recipient]), info, 32))

/** A did's X25519 key, raw and as node:crypto's key; null when the did cannot receive a seal. */
const recipients = boundedCache<{ readonly raw: Uint8Array; readonly key: KeyObject } | null>(1024)
const recipientOf = (did: string) =>
  recipients(did, () => {
    const edPublic = publicKeyOfDid(did)
    const raw = edPublic === null ? null : x25519PublicOf(edPublic)
    return raw === null ? null : { raw, key: x25519PublicKeyOnce(raw) }
  })

/** Seals `plaintext` to `did`; `aad` (the envelope's audience) is bound but not hidden. Null: not a usable did. */
export const sealTo = (did: string, plaintext: Uint8Array, aad: Uint8Array): Seal | null => {
  const recipient = recipientOf(did)
  if (recipient === null) return null
  const ephemeral = generateKeyPairSync("x25519")
  const epk = rawOf(ephemeral.publicKey)
  const key = sealKey(diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient.key }), epk, recipient.raw)
  const nonce = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, nonce).setAAD(aad)
  // nonce ‖ ciphertext ‖ tag: the layout the first implementation (@noble's gcm) wrote.
  const ct = Buffer.concat([nonce, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
  return { v: 1, alg: SEAL_ALG, epk: toBase64Url(epk), ct: toBase64Url(ct) }
}

/**
 * The plaintext of a seal made to the holder of `key` (sealingKeyOf its Ed25519 seed), or null when it does not open.
 */
export const openSeal = (seal: Seal, key: SealingKey, aad: Uint8Array): Uint8Array | null => {
  const epk = fromBase64Url(seal.epk)
  const ct = fromBase64Url(seal.ct)
  if (seal.v !== 1 || seal.alg !== SEAL_ALG || epk === null || epk.length !== 32 || ct === null || ct.length < 12 + 16)
    return null
  try {
    // OpenSSL refuses an agreement that comes out all zeros (a small-order epk), as @noble did.
    const shared = diffieHellman({ privateKey: key.privateKey, publicKey: x25519PublicKeyOnce(epk) })
    const decipher = createDecipheriv("aes-256-gcm", sealKey(shared, epk, key.publicKey), ct.subarray(0, 12))
      .setAAD(aad)
      .setAuthTag(ct.subarray(ct.length - 16))
    return new Uint8Array(Buffer.concat([decipher.update(ct.subarray(12, ct.length - 16)), decipher.final()]))
  } catch {
    return null
  }
}

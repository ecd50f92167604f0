/**
 * The envelope a connection's secret is stored in (the spec's rule on secrets at rest): AES-256-GCM
 * with a random 96-bit IV per value, the key derived from `ENCRYPTION_KEY` by scrypt
 * (N=2^15, r=8, p=1) with the node's salt. Written form, one column:
 *
 *     nv2.<base64 salt>.<base64 of iv (12 bytes) | tag (16 bytes) | ciphertext>
 *
 * The older unsalted form `nv1.<base64 of iv | tag | ciphertext>` (the key derived with an empty
 * salt) still opens and is never written. AES-GCM is @noble/ciphers' audited implementation; the
 * key derivation is node:crypto's scrypt, off the event loop.
 */
import { gcm } from "@noble/ciphers/aes.js"
import { randomBytes, scrypt } from "node:crypto"

export const SALTED = "nv2"
export const UNSALTED = "nv1"

const IV_BYTES = 12
const TAG_BYTES = 16
export const SALT_BYTES = 16
const KEY_BYTES = 32
/** N·r·128 bytes is 32 MiB, exactly node's default ceiling; OpenSSL needs a little over it. */
const scryptOptions = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 }

/** The AES key of a passphrase and salt (the empty salt for the unsalted form). */
export const deriveKey = (passphrase: string, salt: Uint8Array): Promise<Uint8Array> =>
  new Promise((resolve, reject) =>
    scrypt(passphrase.normalize("NFC"), salt, KEY_BYTES, scryptOptions, (error, key) =>
      error === null ? resolve(new Uint8Array(key)) : reject(error)
    )
  )

export const newSalt = (): Uint8Array => new Uint8Array(randomBytes(SALT_BYTES))

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/
const unbase64 = (text: string): Uint8Array | null =>
  BASE64.test(text) ? new Uint8Array(Buffer.from(text, "base64")) : null

/** Seals `plaintext` under the key derived with `salt`; `iv` only for fixed test vectors. */
export const seal = (
  key: Uint8Array,
  salt: Uint8Array,
  plaintext: string,
  iv: Uint8Array = new Uint8Array(randomBytes(IV_BYTES))
): string => {
  // noble answers ciphertext | tag; the envelope stores iv | tag | ciphertext.
  const sealed = gcm(key, iv).encrypt(new TextEncoder().encode(plaintext))
  const ciphertext = sealed.subarray(0, sealed.length - TAG_BYTES)
  const tag = sealed.subarray(sealed.length - TAG_BYTES)
  const payload = new Uint8Array(IV_BYTES + TAG_BYTES + ciphertext.length)
  payload.set(iv, 0)
  payload.set(tag, IV_BYTES)
  payload.set(ciphertext, IV_BYTES + TAG_BYTES)
  return `${SALTED}.${base64(salt)}.${base64(payload)}`
}

/** An envelope taken apart: the salt its key needs (empty for the unsalted form) and the sealed parts. */
export interface Envelope {
  readonly salt: Uint8Array
  readonly iv: Uint8Array
  readonly tag: Uint8Array
  readonly ciphertext: Uint8Array
}

/** The envelope's parts, or null when the text is no envelope of either form. */
export const parseEnvelope = (text: string): Envelope | null => {
  const parts = text.split(".")
  const [form, ...rest] = parts
  const salt =
    form === SALTED && rest.length === 2
      ? unbase64(rest[0]!)
      : form === UNSALTED && rest.length === 1
        ? new Uint8Array(0)
        : null
  const payload = unbase64(rest[rest.length - 1] ?? "")
  if (salt === null || payload === null || payload.length < IV_BYTES + TAG_BYTES) return null
  if (form === SALTED && salt.length === 0) return null
  return {
    salt,
    iv: payload.subarray(0, IV_BYTES),
    tag: payload.subarray(IV_BYTES, IV_BYTES + TAG_BYTES),
    ciphertext: payload.subarray(IV_BYTES + TAG_BYTES)
  }
}

/** The plaintext, or null when the key is wrong or any byte of the envelope was changed. */
export const open = (key: Uint8Array, envelope: Envelope): string | null => {
  const sealed = new Uint8Array(envelope.ciphertext.length + TAG_BYTES)
  sealed.set(envelope.ciphertext, 0)
  sealed.set(envelope.tag, envelope.ciphertext.length)
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(gcm(key, envelope.iv).decrypt(sealed))
  } catch {
    return null
  }
}

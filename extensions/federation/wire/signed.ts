/**
 * A signed document is `{ payload, signature }`: Ed25519 over the UTF-8 bytes of the RFC 8785
 * canonical JSON of `payload`, the 64-byte signature in base64url without padding. Who signed is
 * the did the payload names in `did`; a verifier takes the key from that did alone.
 */
import { createHash, sign, verify } from "node:crypto"
import { publicKeyOfDid } from "./did-key.ts"
import { fromBase64Url, toBase64Url, utf8 } from "./encoding.ts"
import { canonical } from "./jcs.ts"
import { ed25519PrivateKey, ed25519PublicKey } from "./key-objects.ts"

export interface Signed<P> {
  readonly payload: P
  readonly signature: string
}

export const signPayload = <P>(payload: P, secretKey: Uint8Array): Signed<P> => ({
  payload,
  signature: toBase64Url(sign(null, utf8(canonical(payload)), ed25519PrivateKey(secretKey)))
})

/** Whether `signature` is `publicKey`'s over the payload's canonical form. */
export const verifiedWith = (document: Signed<unknown>, publicKey: Uint8Array): boolean => {
  const signature = fromBase64Url(document.signature)
  if (signature === null || signature.length !== 64) return false
  try {
    // OpenSSL checks as RFC 8032 says (canonical S and point encodings): stricter than ZIP 215.
    return verify(null, utf8(canonical(document.payload)), ed25519PublicKey(publicKey), signature)
  } catch {
    return false
  }
}

/** Whether the document is signed by the key of `did` (a did:key). */
export const verifiedBy = (document: Signed<unknown>, did: string): boolean => {
  const publicKey = publicKeyOfDid(did)
  return publicKey !== null && verifiedWith(document, publicKey)
}

/**
 * The digest of a document: SHA-256 of its canonical JSON (the whole `{ payload, signature }`
 * for a signed one), base64url without padding. Replays and attestations name a message by it.
 */
export const digestOf = (document: unknown): string =>
  toBase64Url(createHash("sha256").update(canonical(document)).digest())

/**
 * The wire's bytes did not change when its primitives moved from @noble to node:crypto (issue 13):
 * documents signed and seals made by the first implementation (written out here with @noble,
 * as it was) verify and open with the node's, and the other way round.
 */
import { ed25519, x25519 } from "@noble/curves/ed25519.js"
import { gcm } from "@noble/ciphers/aes.js"
import { hkdf } from "@noble/hashes/hkdf.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { base64urlnopad } from "@scure/base"
import { describe, expect, it } from "vitest"
import { keyPairOf, newKeyPair, sealingKeyOf, x25519PublicOf } from "../../../extensions/federation/wire/did-key.ts"
import { fromUtf8, utf8 } from "../../../extensions/federation/wire/encoding.ts"
import { canonical } from "../../../extensions/federation/wire/jcs.ts"
import { openSeal, SEAL_ALG, sealTo, type Seal } from "../../../extensions/federation/wire/seal.ts"
import { digestOf, signPayload, verifiedBy } from "../../../extensions/federation/wire/signed.ts"

const info = utf8("svc.seal.v1")
const concat = (...parts: ReadonlyArray<Uint8Array>) => Uint8Array.from(parts.flatMap((part) => [...part]))
const nobleKey = (shared: Uint8Array, epk: Uint8Array, recipient: Uint8Array) =>
  hkdf(sha256, shared, concat(epk, recipient), info, 32)

const noble = {
  sign: (payload: unknown, seed: Uint8Array) => ({
    payload,
    signature: base64urlnopad.encode(ed25519.sign(utf8(canonical(payload)), seed))
  }),
  verify: (document: { payload: unknown; signature: string }, publicKey: Uint8Array) =>
    ed25519.verify(base64urlnopad.decode(document.signature), utf8(canonical(document.payload)), publicKey),
  seal: (recipientEd: Uint8Array, plaintext: Uint8Array, aad: Uint8Array): Seal => {
    const recipient = ed25519.utils.toMontgomery(recipientEd)
    const ephemeral = x25519.keygen()
    const key = nobleKey(x25519.getSharedSecret(ephemeral.secretKey, recipient), ephemeral.publicKey, recipient)
    const nonce = crypto.getRandomValues(new Uint8Array(12))
    return {
      v: 1,
      alg: SEAL_ALG,
      epk: base64urlnopad.encode(ephemeral.publicKey),
      ct: base64urlnopad.encode(concat(nonce, gcm(key, nonce, aad).encrypt(plaintext)))
    }
  },
  open: (seal: Seal, seed: Uint8Array, aad: Uint8Array) => {
    const secret = ed25519.utils.toMontgomerySecret(seed)
    const epk = base64urlnopad.decode(seal.epk)
    const ct = base64urlnopad.decode(seal.ct)
    const key = nobleKey(x25519.getSharedSecret(secret, epk), epk, x25519.getPublicKey(secret))
    return gcm(key, ct.subarray(0, 12), aad).decrypt(ct.subarray(12))
  }
}

describe("the wire across its two implementations", () => {
  const author = newKeyPair()
  const recipient = newKeyPair()
  const aad = utf8(recipient.did)
  const payload = { v: 1, type: "svc.message", did: author.did, to: recipient.did, body: "ünïcode ✓ ".repeat(100) }

  it("derives the same keys from a seed", () => {
    const seed = ed25519.utils.randomSecretKey()
    expect(keyPairOf(seed).publicKey).toEqual(ed25519.getPublicKey(seed))
    const sealing = sealingKeyOf(seed)
    expect(sealing.secret).toEqual(ed25519.utils.toMontgomerySecret(seed))
    expect(sealing.publicKey).toEqual(x25519.getPublicKey(sealing.secret))
    expect(x25519PublicOf(keyPairOf(seed).publicKey)).toEqual(sealing.publicKey)
  })

  it("signs the same bytes (Ed25519 is deterministic) and each verifies the other's", () => {
    const old = noble.sign(payload, author.secretKey)
    const fresh = signPayload(payload, author.secretKey)
    expect(fresh.signature).toBe(old.signature)
    expect(verifiedBy(old, author.did)).toBe(true)
    expect(noble.verify(fresh, author.publicKey)).toBe(true)
    expect(digestOf(fresh)).toBe(base64urlnopad.encode(sha256(utf8(canonical(old)))))
  })

  it("opens a seal @noble made, and @noble opens the node's", () => {
    const plaintext = utf8(canonical(noble.sign(payload, author.secretKey)))
    const old = noble.seal(recipient.publicKey, plaintext, aad)
    expect(fromUtf8(openSeal(old, sealingKeyOf(recipient.secretKey), aad)!)).toBe(fromUtf8(plaintext))
    const fresh = sealTo(recipient.did, plaintext, aad)!
    expect(fromUtf8(noble.open(fresh, recipient.secretKey, aad))).toBe(fromUtf8(plaintext))
  })

  it("refuses an old seal under another audience or with a flipped byte", () => {
    const old = noble.seal(recipient.publicKey, utf8("hello"), aad)
    expect(openSeal(old, sealingKeyOf(recipient.secretKey), utf8("did:key:other"))).toBeNull()
    const bytes = base64urlnopad.decode(old.ct)
    bytes[20]! ^= 1
    expect(openSeal({ ...old, ct: base64urlnopad.encode(bytes) }, sealingKeyOf(recipient.secretKey), aad)).toBeNull()
    expect(openSeal(old, sealingKeyOf(author.secretKey), aad)).toBeNull()
  })
})

/**
 * The wire's primitives against the public test vectors of their specifications (RFC 8032,
 * RFC 7748, RFC 5869, RFC 8785, the W3C did:key test vectors), then the node's own documents:
 * signed, digested, sealed and opened.
 */
import { ed25519, x25519 } from "@noble/curves/ed25519.js"
import { hkdf } from "@noble/hashes/hkdf.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { base58 } from "@scure/base"
import { describe, expect, it } from "vitest"
import {
  didOfPublicKey,
  keyPairOf,
  newKeyPair,
  publicKeyOfDid,
  sealingKeyOf,
  x25519PublicOf,
  x25519SecretOf
} from "../../../extensions/federation/wire/did-key.ts"
import { fromUtf8, utf8 } from "../../../extensions/federation/wire/encoding.ts"
import { canonical } from "../../../extensions/federation/wire/jcs.ts"
import { openSeal, sealTo } from "../../../extensions/federation/wire/seal.ts"
import { digestOf, signPayload, verifiedBy } from "../../../extensions/federation/wire/signed.ts"

const hex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"))
const toHex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

describe("RFC 8032 Ed25519 (section 7.1)", () => {
  const vectors = [
    {
      secret: "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
      public: "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
      message: "",
      signature:
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    },
    {
      secret: "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
      public: "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
      message: "72",
      signature:
        "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"
    },
    {
      secret: "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
      public: "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
      message: "af82",
      signature:
        "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"
    }
  ]
  it("derives each public key and signature, and verifies it", () => {
    for (const vector of vectors) {
      expect(toHex(keyPairOf(hex(vector.secret)).publicKey)).toBe(vector.public)
      expect(toHex(ed25519.sign(hex(vector.message), hex(vector.secret)))).toBe(vector.signature)
      expect(ed25519.verify(hex(vector.signature), hex(vector.message), hex(vector.public))).toBe(true)
    }
  })
})

describe("RFC 7748 X25519", () => {
  it("computes the function of section 5.2", () => {
    expect(
      toHex(
        x25519.scalarMult(
          hex("a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4"),
          hex("e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c")
        )
      )
    ).toBe("c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552")
  })

  it("agrees on the shared secret of section 6.1", () => {
    const alice = hex("77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a")
    const bob = hex("5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb")
    expect(toHex(x25519.getPublicKey(alice))).toBe("8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a")
    expect(toHex(x25519.getPublicKey(bob))).toBe("de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f")
    const shared = "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742"
    expect(toHex(x25519.getSharedSecret(alice, x25519.getPublicKey(bob)))).toBe(shared)
    expect(toHex(x25519.getSharedSecret(bob, x25519.getPublicKey(alice)))).toBe(shared)
  })
})

describe("RFC 5869 HKDF-SHA256", () => {
  it("derives the keys of test cases 1 and 3", () => {
    const ikm = new Uint8Array(22).fill(0x0b)
    expect(toHex(hkdf(sha256, ikm, hex("000102030405060708090a0b0c"), hex("f0f1f2f3f4f5f6f7f8f9"), 42))).toBe(
      "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
    )
    expect(toHex(hkdf(sha256, ikm, new Uint8Array(0), new Uint8Array(0), 42))).toBe(
      "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
    )
  })
})

describe("RFC 8785 JSON canonicalization", () => {
  it("writes the example of section 3.2.2 as the RFC does", () => {
    const input = JSON.parse(`{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`)
    expect(canonical(input)).toBe(
      `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA'B\\"\\\\\\\\\\"/"}`
    )
  })

  it("sorts properties by UTF-16 code units (section 3.2.3)", () => {
    const input =
      JSON.parse(`{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One",
      "\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}`)
    expect(canonical(input)).toBe(
      `{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign",` +
        `"\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}`
    )
  })
})

describe("W3C did:key (Ed25519)", () => {
  // did:key documents as resolvers publish them: the verification key and the X25519 key agreement key.
  const documents = [
    {
      did: "did:key:z6MkmjY8GnV5i9YTDtPETC2uUAW6ejw3nk5mXF5yci5ab7th",
      publicKeyBase58: "8HH5gYEeNc3z7PYXmd54d4x6qAfCNrqQqEB3nS7Zfu7K",
      agreement: "z6LShpNhGwSupbB7zjuivH156vhLJBDDzmQtA4BY9S94pe1K",
      agreementBase58: "79CXkde3j8TNuMXxPdV7nLUrT2g7JAEjH5TreyVY7GEZ"
    },
    {
      did: "did:key:z6MkpVCWpibzht7gFFkBsnNigRvXiQWQgV2vqq8eN8zGkGGN",
      publicKeyBase58: "B2wUEUMZNLdD8kuVCDQsqLNXtqEZGbna9pDiXs2Fq3Uz",
      agreement: null,
      agreementBase58: "FTuUZW4g4pFAWjfreUWGyqGuV6iW6qfR7nmeEP4xRP5a"
    }
  ]
  it("reads each did's key and its X25519 key agreement key", () => {
    for (const document of documents) {
      const publicKey = publicKeyOfDid(document.did)!
      expect(base58.encode(publicKey)).toBe(document.publicKeyBase58)
      expect(didOfPublicKey(publicKey)).toBe(document.did)
      const agreement = x25519PublicOf(publicKey)!
      expect(base58.encode(agreement)).toBe(document.agreementBase58)
      if (document.agreement !== null)
        expect(`z${base58.encode(Uint8Array.from([0xec, 0x01, ...agreement]))}`).toBe(document.agreement)
    }
  })

  it("refuses what is not an Ed25519 did:key", () => {
    for (const did of [
      "did:web:example.com",
      "did:key:z6LShpNhGwSupbB7zjuivH156vhLJBDDzmQtA4BY9S94pe1K",
      "did:key:z0OIl",
      "did:key:z"
    ]) {
      expect(publicKeyOfDid(did), did).toBeNull()
    }
  })

  it("gives a secret key's X25519 form the public key of its did's X25519 form", () => {
    const pair = newKeyPair()
    expect(toHex(x25519.getPublicKey(x25519SecretOf(pair.secretKey)))).toBe(toHex(x25519PublicOf(pair.publicKey)!))
  })
})

describe("signed documents", () => {
  const alice = newKeyPair()
  const payload = { v: 1, type: "svc.test", did: alice.did, note: "ünïcode", n: [1, 2.5] }

  it("verify by the did whatever order the payload's keys are in", () => {
    const signed = signPayload(payload, alice.secretKey)
    expect(signed.signature).toMatch(/^[A-Za-z0-9_-]{86}$/)
    const reordered = {
      payload: JSON.parse(
        JSON.stringify({ n: payload.n, note: payload.note, did: payload.did, type: payload.type, v: 1 })
      ),
      signature: signed.signature
    }
    expect(verifiedBy(reordered, alice.did)).toBe(true)
    expect(digestOf(reordered)).toBe(digestOf(signed))
  })

  it("fail on a changed field, another did, or a padded or cut signature", () => {
    const signed = signPayload(payload, alice.secretKey)
    expect(verifiedBy({ ...signed, payload: { ...payload, note: "x" } }, alice.did)).toBe(false)
    expect(verifiedBy(signed, newKeyPair().did)).toBe(false)
    expect(verifiedBy({ ...signed, signature: `${signed.signature}==` }, alice.did)).toBe(false)
    expect(verifiedBy({ ...signed, signature: signed.signature.slice(1) }, alice.did)).toBe(false)
  })
})

describe("seals", () => {
  const bob = newKeyPair()
  const aad = utf8(bob.did)

  it("open for the recipient only, and only with the same audience", () => {
    const plaintext = utf8(canonical({ hello: "bob" }))
    const seal = sealTo(bob.did, plaintext, aad)!
    expect(seal).toMatchObject({ v: 1, alg: "X25519-HKDF-SHA256-A256GCM" })
    expect(fromUtf8(openSeal(seal, sealingKeyOf(bob.secretKey), aad)!)).toBe(`{"hello":"bob"}`)
    expect(openSeal(seal, sealingKeyOf(newKeyPair().secretKey), aad)).toBeNull()
    expect(openSeal(seal, sealingKeyOf(bob.secretKey), utf8("did:key:other"))).toBeNull()
  })

  it("do not open once a byte of the ciphertext changed, and differ each time", () => {
    const seal = sealTo(bob.did, utf8("x".repeat(100)), aad)!
    const flipped = seal.ct.slice(0, 30) + (seal.ct[30] === "A" ? "B" : "A") + seal.ct.slice(31)
    expect(openSeal({ ...seal, ct: flipped }, sealingKeyOf(bob.secretKey), aad)).toBeNull()
    expect(sealTo(bob.did, utf8("x".repeat(100)), aad)!.ct).not.toBe(seal.ct)
  })
})

/**
 * Federation's crypto (issue 13): one 1 KB message signed, sealed, opened and verified, the way
 * deliver handles it (Ed25519 over JCS; X25519, HKDF-SHA256 and AES-256-GCM), beside node:crypto
 * doing the same primitives on the same canonical bytes (OpenSSL, native). The figure is the
 * ratio of round trips per second, aim ≥ 0.5×. Each side runs for about two seconds after a
 * warm-up. `node test/bench/federation.ts` runs it alone.
 */
import {
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  sign,
  verify
} from "node:crypto"
import { newKeyPair, sealingKeyOf } from "../../extensions/federation/wire/did-key.ts"
import { fromUtf8, utf8 } from "../../extensions/federation/wire/encoding.ts"
import { canonical } from "../../extensions/federation/wire/jcs.ts"
import { openSeal, sealTo } from "../../extensions/federation/wire/seal.ts"
import { signPayload, verifiedBy } from "../../extensions/federation/wire/signed.ts"
import { meets, recordVerdict } from "./verdicts.ts"

const body = "x".repeat(1024)
const author = newKeyPair()
const recipient = newKeyPair()
const recipientSealing = sealingKeyOf(recipient.secretKey)
const aad = utf8(recipient.did)
const payload = {
  v: 1,
  type: "svc.message",
  did: author.did,
  to: recipient.did,
  id: "m1",
  body,
  at: new Date(0).toISOString()
}

/** Ours: what a courier and deliver do with one message. */
const ours = () => {
  const signed = signPayload(payload, author.secretKey)
  const seal = sealTo(recipient.did, utf8(canonical(signed)), aad)!
  const opened = JSON.parse(fromUtf8(openSeal(seal, recipientSealing, aad)!)!) as typeof signed
  if (!verifiedBy(opened, author.did)) throw new Error("did not verify")
}

// node:crypto's keys, made once like ours.
const edKeys = generateKeyPairSync("ed25519")
const xRecipient = generateKeyPairSync("x25519")
const info = Buffer.from("svc.seal.v1")

/** The same primitives on the same canonical bytes, in OpenSSL. */
const theirs = () => {
  const message = Buffer.from(canonical(payload))
  const signature = sign(null, message, edKeys.privateKey)
  const plaintext = Buffer.from(canonical({ payload, signature: signature.toString("base64url") }))
  const ephemeral = generateKeyPairSync("x25519")
  const epk = ephemeral.publicKey.export({ format: "der", type: "spki" }).subarray(-32)
  const rpk = xRecipient.publicKey.export({ format: "der", type: "spki" }).subarray(-32)
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: xRecipient.publicKey })
  const key = Buffer.from(hkdfSync("sha256", shared, Buffer.concat([epk, rpk]), info, 32))
  const nonce = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, nonce).setAAD(aad)
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()])
  // Opening: the recipient's agreement with the ephemeral key, the same derivation, the tag checked.
  const epkObject = createPublicKey({
    key: Buffer.concat([Buffer.from("302a300506032b656e032100", "hex"), epk]),
    format: "der",
    type: "spki"
  })
  const openedKey = Buffer.from(
    hkdfSync(
      "sha256",
      diffieHellman({ privateKey: xRecipient.privateKey, publicKey: epkObject }),
      Buffer.concat([epk, rpk]),
      info,
      32
    )
  )
  const decipher = createDecipheriv("aes-256-gcm", openedKey, nonce).setAAD(aad).setAuthTag(ct.subarray(-16))
  const opened = JSON.parse(
    Buffer.concat([decipher.update(ct.subarray(0, -16)), decipher.final()]).toString("utf8")
  ) as { payload: unknown; signature: string }
  if (
    !verify(null, Buffer.from(canonical(opened.payload)), edKeys.publicKey, Buffer.from(opened.signature, "base64url"))
  )
    throw new Error("did not verify")
}

const perSecond = (work: () => void) => {
  for (let i = 0; i < 50; i++) work()
  const started = performance.now()
  let done = 0
  while (performance.now() - started < 2000) {
    work()
    done += 1
  }
  return done / ((performance.now() - started) / 1000)
}

/** Our round trips per second as a share of node:crypto's (issue 13). */
const aimOfNodeCrypto = 0.5

export const benchFederation = () => {
  const mine = perSecond(ours)
  const anchor = perSecond(theirs)
  const ratio = mine / anchor
  console.log(
    `sign + seal + open + verify, 1 KB: ${mine.toFixed(0)}/s (ours) vs ${anchor.toFixed(0)}/s (node:crypto): ${ratio.toFixed(2)}× (aim ≥ ${aimOfNodeCrypto}×${ratio >= aimOfNodeCrypto ? ", met" : ", missed"})`
  )
  recordVerdict({
    figure: "federation: sign + seal + open + verify, 1 KB",
    measured: `${mine.toFixed(0)}/s, ${ratio.toFixed(2)}× node:crypto`,
    anchor: `node:crypto ${anchor.toFixed(0)}/s`,
    aim: `≥ ${aimOfNodeCrypto}× node:crypto`,
    met: meets(ratio, (r) => r >= aimOfNodeCrypto)
  })
}

if (import.meta.url === `file://${process.argv[1]}`) benchFederation()

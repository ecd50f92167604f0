/**
 * Secrets at rest (spec: AES-256-GCM, scrypt N=2^15 r=8 p=1 with a per-node salt, envelope
 * `nv2.<salt>.<iv|tag|ciphertext>`, the older unsalted form read and never written), against
 * fixed vectors made with node:crypto's own AES-GCM, so the envelope is checked against a second
 * implementation as well as against itself.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { describe, expect, it } from "vitest"
import { deriveKey, open, parseEnvelope, seal } from "../../../extensions/twin/secrets/envelope.ts"
import { SecretBox } from "../../../extensions/twin/secrets/secret-box.ts"
import { NodeValues } from "../../../extensions/twin/ports.ts"
import { TwinSettings } from "../../../extensions/twin/settings.ts"
import { Settings } from "../../../kernel/settings.ts"
import { statSync } from "node:fs"
import { join } from "node:path"
import { tempDir } from "../../support/temp-dir.ts"

const passphrase = "correct horse battery staple"
const salt = Uint8Array.from(Buffer.from("000102030405060708090a0b0c0d0e0f", "hex"))
const iv = Uint8Array.from(Buffer.from("a0a1a2a3a4a5a6a7a8a9aaab", "hex"))
const derived = "7a8e34241db898d59175c696538c417467a975ffe569068425f16188d3159c58"
const plaintext = '{"token":"123456:bot-secret"}'
const salted =
  "nv2.AAECAwQFBgcICQoLDA0ODw==.oKGio6SlpqeoqaqrtD8sgb8ApuKtmPwmJeO+UGadOhhM58TXEIfqCfE/TJjGYEyXKLKMbI8beeNB"
/** The older form: no salt in the envelope, the key derived with an empty salt. */
const unsalted = "nv1.oKGio6SlpqeoqaqrTgJrVpvfOwTpXE3oHlaZfTPUDgGXP/kXchpPoRiZZCXCB/3wKXo1pqLCuw=="

const openWith = async (secret: string, envelope: string) => {
  const parsed = parseEnvelope(envelope)
  if (parsed === null) return null
  return open(await deriveKey(secret, parsed.salt), parsed)
}

describe("the secret envelope", () => {
  it("derives the key by scrypt N=2^15 r=8 p=1 from the passphrase and salt", async () => {
    expect(Buffer.from(await deriveKey(passphrase, salt)).toString("hex")).toBe(derived)
  })

  it("seals to the fixed vector and opens it again", async () => {
    const key = await deriveKey(passphrase, salt)
    expect(seal(key, salt, plaintext, iv)).toBe(salted)
    expect(await openWith(passphrase, salted)).toBe(plaintext)
    const fresh = seal(key, salt, plaintext)
    expect(fresh).toMatch(/^nv2\.AAECAwQFBgcICQoLDA0ODw==\.[A-Za-z0-9+/]+=*$/)
    expect(fresh).not.toBe(salted) // a random IV per value
    expect(await openWith(passphrase, fresh)).toBe(plaintext)
  })

  it("refuses an envelope with any byte changed", async () => {
    const [form, saltPart, payload] = salted.split(".")
    const bytes = Buffer.from(payload!, "base64")
    for (const at of [0, 12, 28, bytes.length - 1]) {
      const tampered = Buffer.from(bytes)
      tampered[at] = tampered[at]! ^ 1
      expect(await openWith(passphrase, `${form}.${saltPart}.${tampered.toString("base64")}`)).toBeNull()
    }
    // another salt derives another key
    expect(await openWith(passphrase, `nv2.AAECAwQFBgcICQoLDA0ODg==.${payload}`)).toBeNull()
  })

  it("refuses the wrong key", async () => {
    expect(await openWith("correct horse battery stapler", salted)).toBeNull()
    expect(await openWith("correct horse battery stapler", unsalted)).toBeNull()
  })

  it("reads the older unsalted form", async () => {
    expect(await openWith(passphrase, unsalted)).toBe('{"token":"old-form-secret"}')
  })

  it("takes nothing else for an envelope", () => {
    for (const text of [
      "",
      "nv2",
      "nv3.AAEC.AAEC",
      "nv2..oKGio6Slpqeo",
      "nv2.AAECAwQFBgcICQoLDA0ODw==.short",
      "nv1.a.b",
      "plain-token"
    ]) {
      expect(parseEnvelope(text)).toBeNull()
    }
  })
})

describe("the secret box", () => {
  const kept = new Map<string, string>()
  const nodeValues = Layer.succeed(NodeValues, {
    keep: (key, value) =>
      Effect.sync(() => {
        if (kept.has(key)) return kept.get(key)!
        kept.set(key, value)
        return value
      })
  })
  /** A cluster's shared database by default: there a node keeps no key of its own. */
  const cluster = { databaseUrl: Option.some(Redacted.make("postgres://db.invalid/node")) }
  const box = (
    encryptionKey: Option.Option<Redacted.Redacted<string>>,
    node: Partial<typeof Settings.Service> = cluster
  ) =>
    SecretBox.Default.pipe(
      Layer.provide(nodeValues),
      Layer.provide(TwinSettings.layer({ encryptionKey })),
      Layer.provide(Settings.layerWith(node))
    )
  const run = <A, E>(
    encryptionKey: Option.Option<Redacted.Redacted<string>>,
    use: (box: SecretBox) => Effect.Effect<A, E>,
    node?: Partial<typeof Settings.Service>
  ) => Effect.runPromise(Effect.flatMap(SecretBox, use).pipe(Effect.provide(box(encryptionKey, node))))

  it("writes only the salted form, under one salt per node, and opens both forms", async () => {
    const key = Option.some(Redacted.make(passphrase))
    const first = await run(key, (box) => box.seal("a secret"))
    const second = await run(key, (box) => box.seal("another"))
    expect(first.split(".")[0]).toBe("nv2")
    expect(first.split(".")[1]).toBe(second.split(".")[1])
    expect(first.split(".")[1]).toBe(kept.get("connections_secret_salt"))
    const opened = await run(key, (box) => Effect.all([box.open(first), box.open(unsalted), box.open(salted)]))
    expect(opened.map((value) => Option.map(value, Redacted.value))).toEqual([
      Option.some("a secret"),
      Option.some('{"token":"old-form-secret"}'),
      Option.some(plaintext)
    ])
  })

  it("refuses to seal without ENCRYPTION_KEY, saying to set it, and opens nothing", async () => {
    const refusal = await run(Option.none(), (box) => Effect.flip(box.seal("a secret")))
    expect(refusal.error).toBe("encryption_not_configured")
    expect(refusal.message).toContain("set ENCRYPTION_KEY")
    expect(Option.isNone(await run(Option.none(), (box) => box.open(salted)))).toBe(true)
  })

  it("on one process without ENCRYPTION_KEY, seals under a key it makes once and keeps to itself", async () => {
    const dataDir = tempDir("kept-key-")
    const alone = { dataDir, databaseUrl: Option.none() }
    const file = join(dataDir, "keys", "ENCRYPTION_KEY")
    const sealed = await run(Option.none(), (box) => box.seal("a secret"), alone)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const again = await run(Option.none(), (box) => Effect.all([box.open(sealed), box.seal("another")]), alone)
    expect(Option.map(again[0], Redacted.value)).toEqual(Option.some("a secret"))
    // The same key serves every later seal: the second envelope opens with the first's box too.
    expect(Option.map(await run(Option.none(), (box) => box.open(again[1]), alone), Redacted.value)).toEqual(
      Option.some("another")
    )
  })

  it("opens nothing under another key", async () => {
    expect(Option.isNone(await run(Option.some(Redacted.make("another key")), (box) => box.open(salted)))).toBe(true)
  })
})

/**
 * Seals and opens the node's secrets (envelope.ts) with the key derived from `ENCRYPTION_KEY` (or,
 * unset on a node of one process, the key the node keeps of its own: kernel/encryption-key.ts) and the node's
 * salt, generated once and kept in the node's values. scrypt costs tens of milliseconds, so each
 * salt's key is derived once per process. No key (a cluster without the setting): sealing is
 * refused saying what to set, and nothing opens.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { encryptionKeyMissing } from "../contract/connection-secrets.ts"
import { NodeValues } from "../ports.ts"
import { TwinSettings } from "../settings.ts"
import { Settings } from "../../../kernel/settings.ts"
import { keptKey, keptKeyOrMade, keptKeyPath } from "../../../kernel/encryption-key.ts"
import { deriveKey, newSalt, open, parseEnvelope, seal } from "./envelope.ts"
import { fnNamed } from "../../../kernel/spans.ts"

/** Where the node's salt is kept: generated on the first secret sealed, the same ever after. */
const SALT_KEY = "connections_secret_salt"

export { encryptionKeyMissing }

export class SecretBox extends Effect.Service<SecretBox>()("twin/SecretBox", {
  effect: Effect.gen(function* () {
    const settings = yield* TwinSettings
    const values = yield* NodeValues
    const keyFile = keptKeyPath(yield* Settings)
    const setting = Option.map(settings.encryptionKey, Redacted.value)
    /** The kept key once read: it does not change while the node runs, so the file is read once. */
    let kept: string | undefined
    const remember = (found: string) => {
      kept = found
      return found
    }
    /** The passphrase to seal with: the setting's, else the kept key (made on the first seal). */
    const sealingPassphrase = Option.match(setting, {
      onSome: (passphrase) => Effect.succeed(Option.some(passphrase)),
      onNone: () =>
        Option.match(keyFile, {
          onNone: () => Effect.succeedNone,
          onSome: (path) =>
            Effect.suspend(() =>
              kept !== undefined ? Effect.succeedSome(kept) : Effect.asSome(Effect.map(keptKeyOrMade(path), remember))
            )
        })
    })
    /** The passphrase to open with: the setting's, else the kept key if the node has made one. */
    const openingPassphrase = Option.match(setting, {
      onSome: (passphrase) => Effect.succeed(Option.some(passphrase)),
      onNone: () =>
        Option.match(keyFile, {
          onNone: () => Effect.succeedNone,
          onSome: (path) =>
            Effect.suspend(() =>
              kept !== undefined ? Effect.succeedSome(kept) : Effect.map(keptKey(path), Option.map(remember))
            )
        })
    })
    const keys = new Map<string, Promise<Uint8Array>>()

    const keyFor = (passphrase: string, salt: Uint8Array) =>
      Effect.promise(() => {
        const id = Buffer.from(salt).toString("base64")
        const known = keys.get(id) ?? deriveKey(passphrase, salt)
        keys.set(id, known)
        return known
      })

    const nodeSalt = yield* Effect.cached(
      Effect.map(
        values.keep(SALT_KEY, Buffer.from(newSalt()).toString("base64")),
        (kept) => new Uint8Array(Buffer.from(kept, "base64"))
      )
    )

    /** The envelope of `plaintext`, always the salted form; refused without ENCRYPTION_KEY. */
    const sealText = fnNamed("twin.sealSecret")(function* (plaintext: string) {
      const passphrase = yield* sealingPassphrase
      if (Option.isNone(passphrase)) return yield* encryptionKeyMissing()
      const salt = yield* nodeSalt
      return seal(yield* keyFor(passphrase.value, salt), salt, plaintext)
    })

    /**
     * The plaintext of an envelope of either form, or None when it cannot be opened (no key, not an
     * envelope, another key, a changed byte); said in the log without the envelope or any secret.
     */
    const openText = fnNamed("twin.openSecret")(function* (envelope: string) {
      const passphrase = yield* openingPassphrase
      const parsed = parseEnvelope(envelope)
      if (Option.isNone(passphrase) || parsed === null) {
        yield* Effect.logWarning(
          Option.isNone(passphrase)
            ? "A stored secret was asked for but ENCRYPTION_KEY is unset"
            : "A stored secret is not an envelope"
        )
        return Option.none<Redacted.Redacted<string>>()
      }
      const plaintext = open(yield* keyFor(passphrase.value, parsed.salt), parsed)
      if (plaintext === null)
        yield* Effect.logWarning(
          "A stored secret did not open: ENCRYPTION_KEY is not the one it was sealed with, or it was changed"
        )
      return Option.map(Option.fromNullable(plaintext), Redacted.make)
    })

    return { seal: sealText, open: openText, configured: Option.isSome(setting) || Option.isSome(keyFile) } as const
  })
}) {}

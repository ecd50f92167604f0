/**
 * Seals and opens connection secrets (envelope.ts) with the key derived from `ENCRYPTION_KEY` and
 * the node's salt, generated once and kept in the node's values. scrypt costs tens of
 * milliseconds, so each salt's key is derived once per process. No key: sealing is refused
 * saying what to set, and nothing opens.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { encryptionKeyMissing } from "../contract/connection-secrets.ts"
import { NodeValues } from "../ports.ts"
import { TwinSettings } from "../settings.ts"
import { readEncryptionKeyFile } from "../../../kernel/encryption-key.ts"
import { Settings } from "../../../kernel/settings.ts"
import { deriveKey, newSalt, open, parseEnvelope, seal } from "./envelope.ts"

/** Where the node's salt is kept: generated on the first secret sealed, the same ever after. */
const SALT_KEY = "connections_secret_salt"

export { encryptionKeyMissing }

export class SecretBox extends Effect.Service<SecretBox>()("twin/SecretBox", {
  effect: Effect.gen(function* () {
    const settings = yield* TwinSettings
    const values = yield* NodeValues
    // Unset in the environment: a restored node's key file (kernel/encryption-key.ts), in the node's data folder.
    const node = yield* Effect.serviceOption(Settings)
    const passphrase = Option.orElse(Option.map(settings.encryptionKey, Redacted.value), () =>
      Option.flatMapNullable(node, (kernel) => readEncryptionKeyFile(kernel.dataDir))
    )
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
    const sealText = Effect.fn("twin.sealSecret")(function* (plaintext: string) {
      if (Option.isNone(passphrase)) return yield* encryptionKeyMissing()
      const salt = yield* nodeSalt
      return seal(yield* keyFor(passphrase.value, salt), salt, plaintext)
    })

    /**
     * The plaintext of an envelope of either form, or None when it cannot be opened (no key, not an
     * envelope, another key, a changed byte); said in the log without the envelope or any secret.
     */
    const openText = Effect.fn("twin.openSecret")(function* (envelope: string) {
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

    return { seal: sealText, open: openText, configured: Option.isSome(passphrase) } as const
  })
}) {}

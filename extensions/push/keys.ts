/**
 * The node's VAPID key pair (RFC 8292): a P-256 pair made at the first start, its private half sealed at rest like
 * connection secrets (the twin's `SecretSealer`), the same pair for every process of a cluster (the first written
 * wins). With nothing to seal it under (a cluster without ENCRYPTION_KEY) no pair is made, and the routes that need one
 * say what to set.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { createECDH } from "node:crypto"
import { nowIso } from "../../kernel/time.ts"
import { encryptionKeyMissing } from "../twin/contract/connection-secrets.ts"
import { SecretSealer } from "../twin/contract/secret-sealer.ts"
import { PushRepository } from "./repository.ts"

/**
 * A new pair as web-push's `generateVAPIDKeys` makes it: the public point uncompressed, the private scalar in 32 bytes,
 * both base64url. Made with node:crypto, so a first start does not load web-push and its ASN.1 and JWT libraries,
 * which only sending a message needs (./sender.ts).
 */
const newPair = () => {
  const ecdh = createECDH("prime256v1")
  ecdh.generateKeys()
  const scalar = ecdh.getPrivateKey()
  return {
    publicKey: ecdh.getPublicKey().toString("base64url"),
    privateKey: Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString("base64url")
  }
}

export interface VapidPair {
  /** base64url of the uncompressed point: the browser's applicationServerKey. */
  readonly publicKey: string
  /** base64url of the private scalar. */
  readonly privateKey: Redacted.Redacted<string>
}

export class PushKeys extends Effect.Service<PushKeys>()("push/PushKeys", {
  scoped: Effect.gen(function* () {
    const repository = yield* PushRepository
    const sealed = yield* SecretSealer

    const made = Effect.gen(function* () {
      if (!sealed.configured) {
        yield* Effect.logInfo("Web Push is off until ENCRYPTION_KEY is set: its private key is stored sealed.")
        return Option.none<VapidPair>()
      }
      if (Option.isNone(yield* repository.keys())) {
        const pair = newPair()
        yield* repository.keepKeys({
          publicKey: pair.publicKey,
          privateKeySealed: yield* Effect.orDie(sealed.seal(pair.privateKey)),
          now: yield* nowIso
        })
      }
      const stored = yield* Effect.flatMap(
        repository.keys(),
        Effect.orDieWith(() => "the VAPID key row vanished")
      )
      const opened = yield* sealed.open(stored.privateKeySealed)
      if (Option.isNone(opened))
        yield* Effect.logWarning("Web Push is off: its sealed private key does not open with this ENCRYPTION_KEY.")
      return Option.map(opened, (privateKey): VapidPair => ({ publicKey: stored.publicKey, privateKey }))
    })
    // Made (or opened) once, at the first start, beside the start rather than in its way: sealing and opening
    // derive a key with scrypt, tens of milliseconds a start would otherwise wait for.
    const pair = yield* Effect.cached(made)
    yield* Effect.forkScoped(pair)

    return {
      /** The pair, or the refusal that says what to set. */
      pair: Effect.flatMap(
        pair,
        Option.match({
          onNone: () => Effect.fail(encryptionKeyMissing()),
          onSome: Effect.succeed
        })
      ),
      /** Whether there is a pair to push with. */
      configured: Effect.map(pair, Option.isSome)
    } as const
  })
}) {}

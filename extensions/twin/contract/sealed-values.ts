/**
 * Sealing a value of another feature's at rest in the same envelope as connection secrets (the
 * `nv2` form of extensions/twin/secrets/envelope.ts, under `ENCRYPTION_KEY` and the node's salt):
 * the push feature's private VAPID key, say. What is opened leaves only as a Redacted.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { EncryptionNotConfigured } from "./errors.ts"

export interface SealedValuesShape {
  /** Whether a value can be sealed (ENCRYPTION_KEY is set). */
  readonly sealable: boolean
  /** The envelope of `plaintext`; refused without ENCRYPTION_KEY. */
  readonly seal: (plaintext: string) => Effect.Effect<string, EncryptionNotConfigured>
  /** The plaintext of an envelope, or None when it does not open (no key, another key, a changed byte). */
  readonly open: (envelope: string) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
}

export class SealedValues extends Context.Tag("twin/SealedValues")<SealedValues, SealedValuesShape>() {}

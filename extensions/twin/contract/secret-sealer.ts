/**
 * The node's secret box as other features use it: seal a secret before it is stored, open it when
 * a call needs it (docs/operations.md, `ENCRYPTION_KEY`). The envelope is the `nv2` form of the
 * twin's connection secrets; what opens is a Redacted value, so it reaches no log by accident.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { EncryptionNotConfigured } from "./errors.ts"

export interface SecretSealerShape {
  /** A secret can be sealed: ENCRYPTION_KEY is set, or the node keeps a key of its own. */
  readonly configured: boolean
  readonly seal: (plaintext: string) => Effect.Effect<string, EncryptionNotConfigured>
  /** None when it does not open (another key, a changed byte), said in the log without the secret. */
  readonly open: (envelope: string) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
}

export class SecretSealer extends Context.Tag("twin/SecretSealer")<SecretSealer, SecretSealerShape>() {}

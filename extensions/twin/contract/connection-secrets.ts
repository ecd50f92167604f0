/**
 * A being's connection secrets as the features acting for it use them: the integrations (mail and
 * chat with the being's own credential), and the consent flows of mail_a and plugin providers
 * (a connection granted by consent, its tokens kept and renewed). Secrets stay sealed behind these
 * tags: what leaves is a Redacted value, for the call that needs it. A storage fault is a defect.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { EncryptionNotConfigured } from "./errors.ts"
import type { Connection } from "./connections.ts"

/** A connection's secret fields by name (a consent's tokens: accessToken, refreshToken, expiresAt…). */
export type SecretValues = Readonly<Record<string, string>>

/** Which being's connection to which provider changed its secret (no secret in it). */
export interface SecretChange {
  readonly beingId: string
  readonly provider: string
}

export const encryptionKeyMissing = () =>
  new EncryptionNotConfigured({
    message:
      "This node cannot store a secret yet: set ENCRYPTION_KEY (a long random passphrase, e.g. from `openssl rand -base64 32`) and restart it. Keep it safe: without it, stored secrets cannot be read."
  })

export interface ConnectionSecretsShape {
  /** Whether a secret can be sealed (ENCRYPTION_KEY is set): a consent is refused before it starts otherwise. */
  readonly sealable: boolean
  /** Several processes share the database (PostgreSQL): a renewal is claimed on the row. */
  readonly shared: boolean
  /** The field `field` of the being's usable connection to `provider`, when there is one that opens. */
  readonly credential: (
    beingId: string,
    provider: string,
    field: string
  ) => Effect.Effect<Option.Option<Redacted.Redacted<string>>>
  /** Every secret field of the being's usable connection to `provider`, when there is one that opens. */
  readonly fields: (beingId: string, provider: string) => Effect.Effect<Option.Option<Redacted.Redacted<SecretValues>>>
  /** New fields (a refreshed token) sealed and written behind the call, never awaited. */
  readonly reseal: (beingId: string, provider: string, values: SecretValues) => Effect.Effect<void>
  /** Calls `listener` whenever another process's write replaced a copy here (null: all of them). */
  readonly onReload: (listener: (change: SecretChange | null) => void) => void
  /** What the row holds now, kept as this process's copy too. Shared databases only. */
  readonly stored: (beingId: string, provider: string) => Effect.Effect<Option.Option<Redacted.Redacted<SecretValues>>>
  /**
   * Claims the renewal of the connection's tokens across processes until `until` (ISO); false while another holds it.
   */
  readonly claimRenewal: (
    beingId: string,
    provider: string,
    claimer: string,
    now: string,
    until: string
  ) => Effect.Effect<boolean>
  /** Ends a claimed renewal: the renewed fields sealed and written, or none on a failure. */
  readonly endRenewal: (
    beingId: string,
    provider: string,
    claimer: string,
    values: SecretValues | null
  ) => Effect.Effect<void, EncryptionNotConfigured>
}

export class ConnectionSecrets extends Context.Tag("twin/ConnectionSecrets")<
  ConnectionSecrets,
  ConnectionSecretsShape
>() {}

export interface ConnectionGrantsShape {
  /**
   * A connection completed by its provider's consent (auth kind 'oauth2'): made, or the being's
   * existing one connected again, with the granted tokens sealed as its secret. Refused as any
   * secret is without ENCRYPTION_KEY, before anything is written.
   */
  readonly grant: (
    beingId: string,
    provider: string,
    granted: {
      readonly label: string
      readonly meta: Record<string, string>
      readonly secret: SecretValues
    }
  ) => Effect.Effect<Connection, EncryptionNotConfigured>
}

export class ConnectionGrants extends Context.Tag("twin/ConnectionGrants")<ConnectionGrants, ConnectionGrantsShape>() {}

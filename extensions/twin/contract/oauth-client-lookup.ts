/**
 * The OAuth client in force for a plugin provider, as the consent flow that spends it reads it
 * (extensions/comms/oauth/plugin-consent.ts): the environment's, else the one the owner set in
 * Settings when its secret opens. Bound by the twin over its OAuthClients (oauth-clients.ts).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"

export interface OAuthClient {
  readonly id: string
  readonly secret: Redacted.Redacted<string>
}

export class OAuthClientLookup extends Context.Tag("twin/OAuthClientLookup")<
  OAuthClientLookup,
  {
    readonly client: (provider: string) => Effect.Effect<Option.Option<OAuthClient>>
  }
>() {}

/**
 * An oauth2 plugin provider's authorised fetch for one being, as the twin hands it to the
 * provider's `sync` and `receive` (extensions/twin/plugin-syncs-layer.ts). Bound by comms over the
 * plugin providers' consent flow (oauth/plugin-consent.ts), which keeps the tokens: the plugin gets
 * answers, never a token.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AuthAdapter } from "../../../kernel/contract/auth-fetch.ts"
import type { OAuthProviderUnknown } from "./errors.ts"

export class PluginAuthFetch extends Context.Tag("integrations/PluginAuthFetch")<
  PluginAuthFetch,
  {
    /** Refused when `provider` is not a plugin provider that connects through OAuth 2.0 on this node. */
    readonly forBeing: (beingId: string, provider: string) => Effect.Effect<AuthAdapter, OAuthProviderUnknown>
  }
>() {}

/**
 * The authorised fetch an oauth2 plugin provider's `sync` and `receive` are handed
 * (kernel/extensions/integration-functions.ts): the host adds the bearer token; plugin code never
 * holds it. A contract module, because the feature that keeps the tokens hands it to the one that
 * calls the plugin through its contract tag.
 */
import type * as Effect from "effect/Effect"
import type { CapabilityRefused } from "./capability-refused.ts"

export interface AuthFetchInit {
  readonly method?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly body?: string
}

export interface AuthFetchAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

export interface AuthAdapter {
  readonly fetch: (url: string, init?: AuthFetchInit) => Effect.Effect<AuthFetchAnswer, CapabilityRefused>
}

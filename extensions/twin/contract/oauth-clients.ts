/**
 * The records of the OAuth client routes (ours; the spec is silent): the client this node uses at
 * a plugin provider that connects through OAuth 2.0. The client secret goes in and never comes
 * out: an answer says only whether one is set, and where the client comes from (the environment
 * wins over Settings, so an answer says which one is in force).
 */
import * as Schema from "effect/Schema"
import { ConnectionProvider } from "./records.ts"

/**
 * The environment settings naming a provider's client; named by the host, so a plugin cannot point them at another
 * setting.
 */
export const clientSettingNames = (provider: string) => {
  const stem = `OAUTH_${provider.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`
  return { id: `${stem}_CLIENT_ID`, secret: `${stem}_CLIENT_SECRET` }
}

export const oauthClientSources = ["settings", "environment", "none"] as const

export const OAuthClientState = Schema.Struct({
  provider: Schema.String,
  /** The client id in force (not secret: it travels in every consent URL); null when none is. */
  clientId: Schema.NullOr(Schema.String),
  secretSet: Schema.Boolean,
  source: Schema.Literal(...oauthClientSources)
})
export type OAuthClientState = typeof OAuthClientState.Type

/** Printable ASCII without spaces, as client ids and secrets are issued; bounded so a body cannot hold a novel. */
const credential = (max: number, what: string) =>
  Schema.String.pipe(
    Schema.minLength(1, { message: () => `${what} is empty` }),
    Schema.maxLength(max, { message: () => `${what} is longer than ${max} characters` }),
    Schema.pattern(/^[\x21-\x7e]+$/, { message: () => `${what} must be printable characters without spaces` })
  )

/** `PUT /api/twin/oauth-clients/:provider`: both halves of the client, replaced together. */
export const SetOAuthClient = Schema.Struct({
  clientId: credential(256, "clientId"),
  clientSecret: credential(512, "clientSecret")
})
export type SetOAuthClient = typeof SetOAuthClient.Type

export const OAuthClientProviderParam = Schema.Struct({ provider: ConnectionProvider })

/** The largest body the PUT reads (the two bounded fields and their framing), and the setting that changes it. */
export const OAUTH_CLIENT_MAX_BYTES_SETTING = "OAUTH_CLIENT_MAX_BYTES"
export const DEFAULT_OAUTH_CLIENT_MAX_BYTES = 2048

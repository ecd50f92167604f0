/**
 * The records of the Connections routes (spec: "Connections and the twin"): a being's connection
 * to a provider, the providers of the node's registry with how each is connected (its auth), and
 * the bodies that create and change a connection. A connection's secret never appears in any of
 * them: only `meta`, which holds the non-secret fields. Limits are the spec's.
 */
import * as Schema from "effect/Schema"
import { JsonValue } from "../../../kernel/contract/json.ts"
import { ConnectionProvider } from "./records.ts"

export const connectionStatuses = ["connected", "pending", "error", "disconnected"] as const

export const ConnectionMeta = Schema.Record({ key: Schema.String, value: JsonValue })

export const Connection = Schema.Struct({
  id: Schema.String,
  beingId: Schema.String,
  provider: Schema.String,
  label: Schema.String,
  status: Schema.Literal(...connectionStatuses),
  meta: ConnectionMeta,
  lastSyncAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type Connection = typeof Connection.Type

const text = (min: number, max: number) => Schema.String.pipe(Schema.minLength(min), Schema.maxLength(max))

export const ProviderAuthField = Schema.Struct({
  name: text(1, 40),
  label: text(1, 80),
  secret: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  help: Schema.optionalWith(text(0, 200), { default: () => "" }),
  placeholder: Schema.optionalWith(text(0, 160), { default: () => "" }),
  required: Schema.optionalWith(Schema.Boolean, { default: () => true })
})
export type ProviderAuthField = typeof ProviderAuthField.Type

export const ProviderAuth = Schema.Union(
  Schema.Struct({
    kind: Schema.Literal("oauth2"),
    startPath: text(1, 200),
    scopes: Schema.Array(text(0, 200)),
    // A plugin provider's consent screen and token endpoint (the host runs the flow); a built-in names none.
    authorizeUrl: Schema.optional(text(1, 400)),
    tokenUrl: Schema.optional(text(1, 400)),
    // The hosts its authorised fetch may reach besides the token endpoint's.
    apiHosts: Schema.optionalWith(Schema.Array(text(1, 200)), { default: () => [] }),
    // A plugin provider's listing says whether the node has an OAuth client for it (environment or Settings).
    clientConfigured: Schema.optional(Schema.Boolean)
  }),
  Schema.Struct({ kind: Schema.Literal("fields"), fields: Schema.Array(ProviderAuthField) }),
  Schema.Struct({ kind: Schema.Literal("path"), field: text(1, 40), label: text(0, 80), help: text(0, 200) }),
  Schema.Struct({
    kind: Schema.Literal("webhook"),
    path: text(1, 120),
    verify: Schema.Literal("none", "hmac-sha256", "shared-secret")
  }),
  Schema.Struct({ kind: Schema.Literal("none") })
)
export type ProviderAuth = typeof ProviderAuth.Type

/** The plug emoji, the spec's default icon. */
export const defaultProviderIcon = "\u{1F50C}"

export const ProviderDescriptor = Schema.Struct({
  id: ConnectionProvider,
  title: text(1, 80),
  description: Schema.optionalWith(text(0, 600), { default: () => "" }),
  icon: Schema.optionalWith(text(0, 8), { default: () => defaultProviderIcon }),
  origin: Schema.Literal("builtin", "plugin"),
  pluginId: Schema.optionalWith(Schema.NullOr(text(0, 120)), { default: () => null }),
  auth: ProviderAuth,
  grants: Schema.optionalWith(Schema.Array(text(0, 160)), { default: () => [] }),
  skills: Schema.optionalWith(Schema.Array(text(0, 80)), { default: () => [] }),
  cadenceMs: Schema.optionalWith(Schema.NullOr(Schema.Int.pipe(Schema.between(0, 2_592_000_000))), {
    default: () => null
  }),
  syncable: Schema.optionalWith(Schema.Boolean, { default: () => false })
})
export type ProviderDescriptor = typeof ProviderDescriptor.Type

/** A connection's config: the provider's fields by name, each a string (a token, a path, an address). */
export const ConnectionConfig = Schema.Record({ key: text(1, 40), value: text(0, 4000) })
export type ConnectionConfig = typeof ConnectionConfig.Type

const Label = text(1, 80)

/** `POST /api/connections`: the config is checked against the provider's auth; its secret fields are sealed. */
export const CreateConnection = Schema.Struct({
  provider: ConnectionProvider,
  label: Schema.optionalWith(Label, { exact: true }),
  config: Schema.optionalWith(ConnectionConfig, { default: () => ({}) })
})
export type CreateConnection = typeof CreateConnection.Type

/** `PATCH /api/connections/:id` (ours): a new label, and/or a whole new config in place of the old one. */
export const UpdateConnection = Schema.Struct({
  label: Schema.optionalWith(Label, { exact: true }),
  config: Schema.optionalWith(ConnectionConfig, { exact: true })
})
export type UpdateConnection = typeof UpdateConnection.Type

export const ConnectionIdParam = Schema.Struct({
  id: Schema.UUID.annotations({ message: () => "a connection id (a UUID)" })
})

/**
 * `GET /api/connections/chat_a/pairing` (spec: ChatPairing): whether a bot token resolves for the
 * caller (`configured`), whether a chat completed pairing (`paired`), the pending code with its
 * expiry, the bot's username from `getMe`, the link that opens the bot with the code, and the
 * paired chat's title. Never the token.
 */
export const ChatPairing = Schema.Struct({
  configured: Schema.Boolean,
  paired: Schema.Boolean,
  code: Schema.NullOr(Schema.String),
  expiresAt: Schema.NullOr(Schema.String),
  botUsername: Schema.NullOr(Schema.String),
  deepLink: Schema.NullOr(Schema.String),
  chatTitle: Schema.NullOr(Schema.String)
})
export type ChatPairing = typeof ChatPairing.Type

/** The providers whose credential a skill asks for: a mailbox (an IMAP URL), and the two chat services' tokens. */
export type ConnectedProvider = "mail_a" | "chat_a" | "chat_b"

/**
 * The secret field of each provider whose credential the integrations adapter asks for. mail_a's
 * `imapUrl` is what a mailbox connected before the consent screen existed holds: still read, never
 * written (a mail_a connection is made only by consent now).
 */
export const credentialField: Record<ConnectedProvider, string> = {
  mail_a: "imapUrl",
  chat_a: "token",
  chat_b: "token"
}

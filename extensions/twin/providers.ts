/**
 * The node's provider registry (spec: ConnectionProvider, ProviderDescriptor): the built-ins
 * `mail_a`, `chat_a`, `chat_b`, `files` and `browser`, and each `integration` a loaded plugin
 * contributes, as `<namespace>.<id>`, read from the contribution registries at each call so an
 * install or uninstall shows at once. A plugin's declaration that does not fit the descriptor is
 * left out and said in the log, so one bad plugin cannot hide the others.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { credentialField, ProviderDescriptor } from "./contract/connections.ts"
import { webhookPath } from "./contract/webhooks-api.ts"
import { ProviderRegistry, type RegisteredProvider } from "./contract/provider-registry.ts"
import { LoadedContributions } from "../../kernel/extensions/registry.ts"
import type { Contribution } from "../../kernel/extensions/registry.ts"
import { CHAT_ICON, CHAT_PROVIDER, CHAT_TITLE } from "./chat-bridge/tokens.ts"
import { MAIL_A_AUTH_PATH, mailAScopes } from "../comms/contract/mail-a.ts"
import { pluginConsentPath } from "../comms/contract/oauth-paths.ts"

export { credentialField } from "./contract/connections.ts"

const builtin = (descriptor: Omit<typeof ProviderDescriptor.Encoded, "origin">) =>
  Schema.decodeSync(ProviderDescriptor)({ ...descriptor, origin: "builtin" })

export const builtinProviders: ReadonlyArray<RegisteredProvider> = [
  {
    descriptor: builtin({
      id: "mail_a",
      title: "Mail (Gmail)",
      icon: "\u2709\uFE0F",
      description:
        "Your own Gmail mailbox, connected through Google's consent screen: synced into your twin, read by email.read and sent from by email.send instead of the node's IMAP_URL and SMTP_URL.",
      auth: { kind: "oauth2", startPath: MAIL_A_AUTH_PATH, scopes: [...mailAScopes] },
      skills: ["email.read", "email.send"],
      syncable: true
    })
  },
  {
    descriptor: builtin({
      id: CHAT_PROVIDER,
      title: CHAT_TITLE,
      icon: CHAT_ICON,
      description:
        "Your own Telegram bot for chat_a.send and the chat bridge to your Muse, preferred over the node's CHAT_A_BOT_TOKEN.",
      auth: {
        kind: "fields",
        fields: [
          {
            name: credentialField.chat_a,
            label: "Bot token",
            help: "The token @BotFather gave your bot.",
            placeholder: "123456:ABC-DEF..."
          }
        ]
      },
      skills: ["chat_a.send"]
    }),
    // Connected only once a chat completes pairing (spec); the token already sends.
    initialStatus: "pending"
  },
  {
    descriptor: builtin({
      id: "chat_b",
      title: "Chat B (Slack)",
      icon: "\u{1F5E8}\uFE0F",
      description: "Your own Slack token for chat_b.send, preferred over the node's CHAT_B_TOKEN.",
      auth: {
        kind: "fields",
        fields: [
          {
            name: credentialField.chat_b,
            label: "Slack token",
            help: "A bot token (xoxb-...) with chat:write.",
            placeholder: "xoxb-..."
          }
        ]
      },
      skills: ["chat_b.send"]
    })
  },
  {
    descriptor: builtin({
      id: "files",
      title: "Local files",
      icon: "\u{1F4C1}",
      description: "Index the text files of a folder inside the owner's FILES_ROOT into your twin.",
      auth: { kind: "path", field: "path", label: "Folder", help: "A folder inside FILES_ROOT; empty for all of it." },
      syncable: true
    })
  },
  {
    descriptor: builtin({
      id: "browser",
      title: "Browser",
      icon: "\u{1F310}",
      description:
        "A Chromium profile's History file inside FILES_ROOT: the pages you visited become browsed activity and memories.",
      auth: {
        kind: "path",
        field: "path",
        label: "History file",
        help: "The History file of a Chromium profile, copied inside FILES_ROOT."
      },
      syncable: true
    })
  }
]

const PluginProvider = Schema.Struct({
  icon: Schema.optional(Schema.Unknown),
  auth: Schema.optional(Schema.Unknown),
  skills: Schema.optional(Schema.Unknown),
  cadenceMs: Schema.optional(Schema.Unknown),
  syncable: Schema.optional(Schema.Unknown)
})

const oauth2Declared = (auth: unknown) =>
  typeof auth === "object" && auth !== null && (auth as { readonly kind?: unknown }).kind === "oauth2"

/**
 * A plugin's `integration` as a descriptor: its title and description declared, the rest from what it hands the host.
 */
export const fromPlugin = (contribution: Contribution<"integration">) => {
  const given = Schema.decodeUnknownSync(PluginProvider)(contribution.value)
  const declared = Schema.decodeUnknownSync(PluginProvider)(contribution.declaration)
  return Schema.decodeUnknown(ProviderDescriptor)(
    {
      id: contribution.name,
      title: contribution.declaration.title ?? contribution.name,
      description: contribution.declaration.description ?? "",
      origin: "plugin",
      pluginId: contribution.pluginId,
      grants: contribution.declaration.uses,
      auth: { kind: "none" },
      ...declared,
      ...given,
      // An oauth2 provider is connected through the node's own consent route: a plugin names no path of the host's.
      ...(oauth2Declared(given.auth ?? declared.auth)
        ? { auth: { ...((given.auth ?? declared.auth) as object), startPath: pluginConsentPath(contribution.name) } }
        : {})
    },
    { onExcessProperty: "ignore" }
  ).pipe(
    // A webhook is delivered to the node's own route: a plugin names no path of the host's.
    Effect.map((descriptor) =>
      descriptor.auth.kind === "webhook"
        ? { ...descriptor, auth: { ...descriptor.auth, path: webhookPath(descriptor.id) } }
        : descriptor
    ),
    Effect.map((descriptor): ReadonlyArray<RegisteredProvider> => [{ descriptor }]),
    Effect.catchAll((error) =>
      Effect.as(
        Effect.logWarning(
          `The provider ${contribution.name} of plugin ${contribution.pluginId} is left out: ${error.message}`
        ),
        []
      )
    )
  )
}

export const ProviderRegistryLive = Layer.effect(
  ProviderRegistry,
  // The registries, not the extension host: the host is built over the connections feature.
  Effect.map(LoadedContributions, ({ registries }) => ({
    list: Effect.suspend(() => Effect.forEach(registries.integration.list(), fromPlugin)).pipe(
      Effect.map((plugins) => [...builtinProviders, ...plugins.flat()])
    )
  }))
)

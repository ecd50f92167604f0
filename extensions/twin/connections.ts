/**
 * The Connections routes' rules: a being's connections to the providers of the node's registry.
 * A config is checked against the provider's auth (its fields, its path, or nothing); the secret
 * fields are sealed together into one envelope and never answered, logged or handed on; the
 * non-secret ones are mirrored into `meta`. Every read and change is of the caller's own
 * connections: another being's is a 404, as if it did not exist.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { randomUUID } from "node:crypto"
import type { Caller } from "../accounts/contract/session.ts"
import { AlreadyConnected, ConnectionNotFound, InvalidConfig, UnknownProvider } from "./contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"
import type {
  Connection,
  ConnectionConfig,
  CreateConnection,
  ProviderAuth,
  UpdateConnection
} from "./contract/connections.ts"
import { TwinFolders } from "./ports.ts"
import { ProviderRegistry, type RegisteredProvider } from "./contract/provider-registry.ts"
import { ConnectionsRepository, type TwinConnection } from "./repositories/connections-repository.ts"
import { ConnectionCredentials, lendsCredential } from "./connection-credentials.ts"
import { SecretBox } from "./secrets/secret-box.ts"
import { OAuthClients } from "./oauth-clients.ts"
import { BROWSER_PROVIDER, BrowserImporter } from "./browser-history.ts"
import { FILES_PROVIDER } from "./sync.ts"
import { ChatPollers } from "./chat-bridge/pollers.ts"
import { CHAT_PROVIDER } from "./chat-bridge/tokens.ts"
import { ChatPairings } from "./chat-bridge/pairing.ts"
import { fnNamed, spanNamed } from "../../kernel/spans.ts"

const toConnection = (row: TwinConnection): Connection => ({
  id: row.id,
  beingId: row.beingId,
  provider: row.provider,
  label: row.label,
  status: row.status,
  meta: row.meta,
  lastSyncAt: row.lastSyncAt,
  createdAt: row.createdAt
})

const invalidConfig = (message: string, details: Record<string, unknown>) => new InvalidConfig({ message, details })

/** The names a config may hold under an auth, and which of them are secret or required. */
const fieldsOf = (auth: ProviderAuth) => {
  switch (auth.kind) {
    case "fields":
      return auth.fields.map((field) => ({
        name: field.name,
        label: field.label,
        secret: field.secret,
        required: field.required
      }))
    case "path":
      return [{ name: auth.field, label: auth.label || auth.field, secret: false, required: true }]
    case "webhook":
      return auth.verify === "none" ? [] : [{ name: "secret", label: "Shared secret", secret: true, required: true }]
    default:
      return []
  }
}

export class Connections extends Effect.Service<Connections>()("twin/Connections", {
  dependencies: [
    ConnectionsRepository.Default,
    SecretBox.Default,
    ConnectionCredentials.Default,
    BrowserImporter.Default,
    ChatPollers.Default,
    ChatPairings.Default,
    OAuthClients.Default
  ],
  effect: Effect.gen(function* () {
    const connections = yield* ConnectionsRepository
    const credentials = yield* ConnectionCredentials
    const browser = yield* BrowserImporter
    const box = yield* SecretBox
    const registry = yield* ProviderRegistry
    const folders = yield* TwinFolders
    const chat = yield* ChatPollers
    const pairings = yield* ChatPairings
    const clients = yield* OAuthClients
    /** The chat bridge follows its connections: their pollers and pairings. */
    const followed = (beingId: string, provider: string) =>
      provider === CHAT_PROVIDER ? chat.connectionChanged(beingId) : Effect.void

    /**
     * A plugin's oauth2 provider says whether the node has a client for it, so its Connect button can say what is
     * missing.
     */
    const withClient = (descriptor: RegisteredProvider["descriptor"]) =>
      descriptor.origin === "plugin" && descriptor.auth.kind === "oauth2"
        ? Effect.map(clients.stateOf(descriptor.id), (state) => ({
            ...descriptor,
            auth: { ...descriptor.auth, clientConfigured: state.source !== "none" }
          }))
        : Effect.succeed(descriptor)

    const providers = Effect.flatMap(registry.list, (all) =>
      Effect.forEach(all, (registered) => withClient(registered.descriptor))
    ).pipe(spanNamed("connections.providers"))

    const providerOf = (id: string) =>
      Effect.flatMap(registry.list, (all) => {
        const found = all.find((registered) => registered.descriptor.id === id)
        return found !== undefined
          ? Effect.succeed(found)
          : Effect.fail(
              new UnknownProvider({
                message: `This node has no provider "${id}".`,
                details: { provider: id, providers: all.map((registered) => registered.descriptor.id) }
              })
            )
      })

    /**
     * The config checked against the provider: what goes to `meta` and what is sealed (null when nothing is secret).
     */
    const prepare = (caller: Caller, registered: RegisteredProvider, config: ConnectionConfig) =>
      Effect.gen(function* () {
        const { auth, id } = registered.descriptor
        if (auth.kind === "oauth2") {
          return yield* invalidConfig(
            `The ${id} provider is connected through its consent screen (${auth.startPath}), not with a config.`,
            { provider: id, startPath: auth.startPath }
          )
        }
        const fields = fieldsOf(auth)
        const unknown = Object.keys(config).filter((name) => !fields.some((field) => field.name === name))
        if (unknown.length > 0) {
          return yield* invalidConfig(
            `The ${id} provider takes no field ${unknown.join(", ")}; its fields: ${fields.map((field) => field.name).join(", ") || "none"}.`,
            { unknown, fields: fields.map((field) => field.name) }
          )
        }
        const missing = fields
          .filter((field) => field.required && (config[field.name] ?? "").trim() === "")
          .map((field) => field.name)
        if (missing.length > 0)
          return yield* invalidConfig(`The ${id} provider needs ${missing.join(", ")}.`, { missing })
        const problem = registered.check?.(config) ?? null
        if (problem !== null) return yield* invalidConfig(problem, { provider: id })
        const meta: Record<string, string> = {}
        const secret: Record<string, string> = {}
        for (const field of fields) {
          const value = config[field.name]
          if (value === undefined || value === "") continue
          if (field.secret) secret[field.name] = value
          else meta[field.name] = value
        }
        // The files and browser providers read the owner's FILES_ROOT: checked as their syncs check it.
        if (id === FILES_PROVIDER && auth.kind === "path")
          meta[auth.field] = yield* folders.check(caller, meta[auth.field] ?? "")
        if (id === BROWSER_PROVIDER && auth.kind === "path") yield* browser.check(caller, meta[auth.field] ?? "")
        return { meta, secret: Object.keys(secret).length === 0 ? null : yield* box.seal(JSON.stringify(secret)) }
      })

    const owned = (caller: Caller, id: string) =>
      Effect.flatMap(
        connections.findById({ id, beingId: caller.beingId }),
        Option.match({
          onNone: () => Effect.fail(new ConnectionNotFound({ message: "You have no such connection." })),
          onSome: Effect.succeed
        })
      )

    /** A chat_a connection without a token of its own: made by the chat bridge for the node's bot. */
    const heldForPairing = (beingId: string, provider: string) =>
      provider === CHAT_PROVIDER
        ? Effect.map(credentials.credential(beingId, provider, "token"), Option.isNone)
        : Effect.succeed(false)

    const create = fnNamed("connections.create")(function* (caller: Caller, body: CreateConnection) {
      const registered = yield* providerOf(body.provider)
      const prepared = yield* prepare(caller, registered, body.config)
      const row = {
        id: randomUUID(),
        beingId: caller.beingId,
        provider: body.provider,
        label: body.label ?? registered.descriptor.title,
        status: registered.initialStatus ?? "connected",
        meta: prepared.meta,
        createdAt: yield* nowIso,
        secret: prepared.secret
      } as const
      if (!(yield* connections.create(row))) {
        const existing = yield* connections.find({ beingId: caller.beingId, provider: body.provider })
        if (Option.isSome(existing) && (yield* heldForPairing(caller.beingId, body.provider))) {
          // The chat bridge made it to keep a pairing code for the node's bot: a saved token takes it over.
          yield* connections.update({
            id: existing.value.id,
            beingId: caller.beingId,
            label: row.label,
            status: row.status,
            meta: row.meta,
            secret: row.secret
          })
          yield* credentials.remember(caller.beingId, row.provider, row.secret)
          yield* followed(caller.beingId, row.provider)
          return toConnection(yield* owned(caller, existing.value.id))
        }
        return yield* new AlreadyConnected({
          message: `You are already connected to ${body.provider}: change that connection (PATCH) or delete it first.`,
          details: { connectionId: Option.getOrNull(Option.map(existing, (found) => found.id)) }
        })
      }
      yield* credentials.remember(caller.beingId, row.provider, lendsCredential(row.status) ? row.secret : null)
      yield* followed(caller.beingId, row.provider)
      return toConnection(yield* owned(caller, row.id))
    })

    const list = (caller: Caller) =>
      Effect.map(connections.list(caller.beingId), (rows) => rows.map(toConnection)).pipe(spanNamed("connections.list"))

    const get = (caller: Caller, id: string) =>
      Effect.map(owned(caller, id), toConnection).pipe(spanNamed("connections.get"))

    /**
     * A new label, and/or a whole new config (its secret sealed again); a connection in error is connected again by a
     * new config.
     */
    const update = fnNamed("connections.update")(function* (caller: Caller, id: string, patch: UpdateConnection) {
      const row = yield* owned(caller, id)
      const prepared =
        patch.config === undefined ? null : yield* prepare(caller, yield* providerOf(row.provider), patch.config)
      const status = prepared === null || row.status === "pending" ? row.status : "connected"
      yield* connections.update({
        id,
        beingId: caller.beingId,
        label: patch.label ?? row.label,
        status,
        meta: prepared?.meta ?? row.meta,
        ...(prepared === null ? {} : { secret: prepared.secret })
      })
      if (prepared !== null)
        yield* credentials.remember(caller.beingId, row.provider, lendsCredential(status) ? prepared.secret : null)
      yield* followed(caller.beingId, row.provider)
      return toConnection(yield* owned(caller, id))
    })

    /** The row and its secret go together; what a sync made of it (memories, activity) stays the twin's. */
    const remove = fnNamed("connections.delete")(function* (caller: Caller, id: string) {
      const row = yield* owned(caller, id)
      yield* connections.remove({ id, beingId: caller.beingId })
      yield* credentials.remember(caller.beingId, row.provider, null)
      yield* followed(caller.beingId, row.provider)
      return row.provider
    })

    /** `GET /api/connections/chat_a/pairing` (chat-bridge/pairing.ts). */
    const chatPairing = (caller: Caller) => pairings.pairing(caller)

    return { providers, create, list, get, update, remove, chatPairing } as const
  })
}) {}

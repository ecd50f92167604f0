/**
 * The OAuth client this node uses at each plugin provider that connects through OAuth 2.0: from
 * the environment (`OAUTH_<PROVIDER>_CLIENT_ID` and `_CLIENT_SECRET`, `<PROVIDER>` the provider id
 * upper-cased with each other character as `_`), else the one the owner set in Settings, its
 * secret sealed as connection secrets are (secrets/secret-box.ts). The environment wins: a
 * deployment that pins its client is not overridden from the UI. The secret never leaves here
 * but to the token endpoint: answers say only whether one is set.
 *
 * The environment is read at each use, not at start, so a restart is not needed to see a change
 * the tests (and an owner's process manager) make there.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import type { Caller } from "../accounts/contract/session.ts"
import { OwnerOnly } from "../accounts/contract/errors.ts"
import { UnknownProvider } from "./contract/errors.ts"
import { nowIso } from "../../kernel/time.ts"
import { clientSettingNames, type OAuthClientState, type SetOAuthClient } from "./contract/oauth-clients.ts"
import { type OAuthClient, OAuthClientLookup } from "./contract/oauth-client-lookup.ts"
import { ProviderRegistry } from "./contract/provider-registry.ts"
import { NodeValuesLive } from "./node-values.ts"
import { ProviderRegistryLive } from "./providers.ts"
import { OAuthClientsRepository } from "./repositories/oauth-clients-repository.ts"
import { encryptionKeyMissing, SecretBox } from "./secrets/secret-box.ts"
import { fnNamed } from "../../kernel/spans.ts"

const fromEnvironment = (provider: string) => {
  const names = clientSettingNames(provider)
  return Effect.orElseSucceed(
    Config.option(Config.all({ id: Config.nonEmptyString(names.id), secret: Config.redacted(names.secret) })),
    () => Option.none<{ readonly id: string; readonly secret: Redacted.Redacted<string> }>()
  )
}

export class OAuthClients extends Effect.Service<OAuthClients>()("twin/OAuthClients", {
  dependencies: [OAuthClientsRepository.Default, SecretBox.Default],
  effect: Effect.gen(function* () {
    const registry = yield* ProviderRegistry
    const repository = yield* OAuthClientsRepository
    const box = yield* SecretBox

    /** The plugin providers that connect through OAuth 2.0, by id: the only ones a client is kept for. */
    const oauthProviders = Effect.map(registry.list, (all) =>
      all
        .filter(({ descriptor }) => descriptor.origin === "plugin" && descriptor.auth.kind === "oauth2")
        .map(({ descriptor }) => descriptor.id)
    )

    const ownerOnly = (caller: Caller) =>
      caller.isOwner
        ? Effect.void
        : Effect.fail(new OwnerOnly({ message: "Only the owner of this node sets its OAuth clients." }))

    const known = (provider: string) =>
      Effect.flatMap(oauthProviders, (ids) =>
        ids.includes(provider)
          ? Effect.void
          : Effect.fail(
              new UnknownProvider({
                message: `No plugin provider ${provider} connects through OAuth 2.0 on this node.`,
                details: { provider }
              })
            )
      )

    const stateOf = fnNamed("oauthClients.state")(function* (provider: string) {
      const environment = yield* fromEnvironment(provider)
      if (Option.isSome(environment))
        return {
          provider,
          clientId: environment.value.id,
          secretSet: true,
          source: "environment"
        } satisfies OAuthClientState
      const stored = yield* repository.sealedSecret(provider)
      return Option.isSome(stored)
        ? ({
            provider,
            clientId: stored.value.clientId,
            secretSet: true,
            source: "settings"
          } satisfies OAuthClientState)
        : ({ provider, clientId: null, secretSet: false, source: "none" } satisfies OAuthClientState)
    })

    const list = fnNamed("oauthClients.list")(function* (caller: Caller) {
      yield* ownerOnly(caller)
      return yield* Effect.forEach(yield* oauthProviders, stateOf)
    })

    const set = fnNamed("oauthClients.set")(function* (caller: Caller, provider: string, body: SetOAuthClient) {
      yield* ownerOnly(caller)
      yield* known(provider)
      if (!box.configured) return yield* encryptionKeyMissing()
      const secret = yield* box.seal(body.clientSecret)
      yield* repository.save({ provider, clientId: body.clientId, secret, at: yield* nowIso })
      yield* Effect.logInfo(`The OAuth client for ${provider} was set in Settings`)
      return yield* stateOf(provider)
    })

    const remove = fnNamed("oauthClients.remove")(function* (caller: Caller, provider: string) {
      yield* ownerOnly(caller)
      yield* known(provider)
      yield* repository.remove(provider)
      yield* Effect.logInfo(`The OAuth client for ${provider} set in Settings was removed`)
      return yield* stateOf(provider)
    })

    /** The client in force for `provider`: the environment's, else the one set in Settings when its secret opens. */
    const client = fnNamed("oauthClients.client")(function* (provider: string) {
      const environment = yield* fromEnvironment(provider)
      if (Option.isSome(environment)) return Option.some<OAuthClient>(environment.value)
      const stored = yield* repository.sealedSecret(provider)
      if (Option.isNone(stored)) return Option.none<OAuthClient>()
      const opened = yield* box.open(stored.value.secret)
      return Option.map(opened, (secret): OAuthClient => ({ id: stored.value.clientId, secret }))
    })

    return { list, set, remove, client, stateOf } as const
  })
}) {}

/** The service with the ports it reads bound: the provider registry, and the node's salt its secret box keeps. */
export const OAuthClientsLive = OAuthClients.Default.pipe(
  Layer.provide(Layer.mergeAll(NodeValuesLive, ProviderRegistryLive))
)

/** The client in force, as the plugin providers' consent flow reads it (contract/oauth-client-lookup.ts). */
export const OAuthClientLookupLive = Layer.effect(
  OAuthClientLookup,
  Effect.map(OAuthClients, (clients) => ({ client: clients.client }))
).pipe(Layer.provide(OAuthClientsLive))

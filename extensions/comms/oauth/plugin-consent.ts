/**
 * OAuth 2.0 for plugin providers (auth `{ kind: "oauth2", authorizeUrl, tokenUrl, scopes, apiHosts }`):
 * the host runs the authorization code grant with PKCE S256 and state (the same pending-consent
 * store, token calls and token keeper as mail_a, beside this file), seals the tokens as the connection's secret, refreshes them
 * when expired or answered 401, and lends plugin code an authorised fetch, never the token.
 *
 * The client: `OAUTH_<PROVIDER>_CLIENT_ID` and `OAUTH_<PROVIDER>_CLIENT_SECRET` in the node's
 * environment, else the one the owner set in Settings: the twin keeps them and answers the one in
 * force through its contract (OAuthClientLookup), as it answers the provider registry.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { Caller } from "../../accounts/contract/session.ts"
import { OAuthNotConfigured, OAuthProviderUnknown, OAuthRefused } from "../contract/errors.ts"
import { pluginCallbackPath } from "../contract/oauth-paths.ts"
import { ConnectionGrants, ConnectionSecrets, encryptionKeyMissing } from "../../twin/contract/connection-secrets.ts"
import { clientSettingNames } from "../../twin/contract/oauth-clients.ts"
import { OAuthClientLookup } from "../../twin/contract/oauth-client-lookup.ts"
import { ProviderRegistry } from "../../twin/contract/provider-registry.ts"
import { WebSettings } from "../../network/contract/web-settings.ts"
import { makeOutbound } from "../../../kernel/http/outbound.ts"
import { PublicOrigin } from "../../../kernel/origin.ts"
import { hostVersion } from "../../../kernel/version.ts"
import { type CallbackQuery, codeOf, makePendingConsents } from "./pending-consents.ts"
import { PendingConsentsRepository } from "./pending-consents-repository.ts"
import { type Client, consentUrl, exchangeCode, refreshTokens } from "./protocol.ts"
import { makeTokenKeeper } from "./token-keeper.ts"
import { fnNamed } from "../../../kernel/spans.ts"

export interface OAuthPlan {
  readonly authorizeUrl: string
  readonly tokenUrl: string
  readonly scopes: ReadonlyArray<string>
  readonly apiHosts: ReadonlyArray<string>
}

export class PluginOAuth extends Effect.Service<PluginOAuth>()("integrations/PluginOAuth", {
  dependencies: [PendingConsentsRepository.Default],
  effect: Effect.gen(function* () {
    const registry = yield* ProviderRegistry
    const connections = yield* ConnectionGrants
    const credentials = yield* ConnectionSecrets
    const clients = yield* OAuthClientLookup
    const origin = yield* PublicOrigin
    const consents = yield* makePendingConsents("Connect")
    // One outbound for the token endpoint and auth.fetch alike: the manifest names both, so both
    // follow the node's address policy (WEB_ALLOW_PRIVATE), refused the same way.
    const send = makeOutbound({
      allowPrivate: (yield* WebSettings).webAllowPrivate,
      userAgent: `svc-node/${hostVersion}`
    })

    const planOf = (provider: string) =>
      Effect.flatMap(registry.list, (providers) => {
        const found = providers.find((p) => p.descriptor.id === provider && p.descriptor.origin === "plugin")
        const auth = found?.descriptor.auth
        return auth?.kind === "oauth2" && auth.authorizeUrl !== undefined && auth.tokenUrl !== undefined
          ? Effect.succeed<OAuthPlan>({
              authorizeUrl: auth.authorizeUrl,
              tokenUrl: auth.tokenUrl,
              scopes: auth.scopes,
              apiHosts: auth.apiHosts
            })
          : Effect.fail(
              new OAuthProviderUnknown({
                message: `No plugin provider ${provider.slice(0, 80)} connects through OAuth 2.0 on this node.`
              })
            )
      })

    const clientOf = (provider: string) => {
      const names = clientSettingNames(provider)
      return Effect.flatMap(
        clients.client(provider),
        Option.match({
          onNone: () =>
            Effect.fail(
              new OAuthNotConfigured({
                message: `This node has no OAuth client for ${provider.slice(0, 80)} yet: its owner sets the client id and secret under Settings → Connections → OAuth clients (or ${names.id} and ${names.secret} in the environment).`
              })
            ),
          onSome: (found) => Effect.succeed<Client>({ id: found.id, secret: Redacted.value(found.secret) })
        })
      )
    }

    const start = fnNamed("pluginOAuth.startConsent")(function* (caller: Caller, provider: string) {
      const plan = yield* planOf(provider)
      const client = yield* clientOf(provider)
      if (!credentials.sealable) return yield* encryptionKeyMissing()
      const { state, verifier } = yield* consents.open(caller, provider)
      return consentUrl(plan.authorizeUrl, client, {
        redirectUri: `${origin.url}${pluginCallbackPath(provider)}`,
        state,
        verifier,
        scopes: plan.scopes
      })
    })

    const finish = fnNamed("pluginOAuth.finishConsent")(function* (
      caller: Caller,
      provider: string,
      query: CallbackQuery
    ) {
      const plan = yield* planOf(provider)
      const consent = yield* consents.take(caller, provider, query.state)
      const code = yield* codeOf(query, "The provider", "connect again")
      const client = yield* clientOf(provider)
      const now = yield* Clock.currentTimeMillis
      const tokens = yield* Effect.tryPromise({
        try: () =>
          exchangeCode(
            send,
            plan.tokenUrl,
            client,
            { code, verifier: consent.verifier, redirectUri: `${origin.url}${pluginCallbackPath(provider)}` },
            now,
            `${provider}'s token endpoint`
          ),
        catch: (error) =>
          new OAuthRefused({
            message: `Connecting failed: ${error instanceof Error ? error.message : "no reason given."} Nothing was connected; connect again.`
          })
      })
      return yield* connections.grant(caller.beingId, provider, {
        label: provider.slice(0, 80),
        meta: {},
        secret: { ...tokens }
      })
    })

    const keeper = makeTokenKeeper(credentials, {
      gone: "the connection is gone or its tokens do not open: connect it again.",
      renew: (provider, refreshToken, at) =>
        Effect.gen(function* () {
          const plan = yield* planOf(provider)
          const client = yield* clientOf(provider)
          return yield* Effect.tryPromise({
            try: () => refreshTokens(send, plan.tokenUrl, client, refreshToken, at, `${provider}'s token endpoint`),
            catch: (error) =>
              new OAuthRefused({
                message: `${error instanceof Error ? error.message : "no reason given."}`
              })
          })
        }).pipe(
          Effect.mapError(
            (error) => new Error(`the connection could not be renewed: ${error.message} Connect it again.`)
          )
        )
    })

    return { start, finish, planOf, send, accessToken: keeper.live, refreshed: keeper.refreshed } as const
  })
}) {}

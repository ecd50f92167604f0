/**
 * The two routes a browser walks to connect a plugin's oauth2 provider, as mail_a's (../mail-a/consent-routes.ts):
 * `GET /api/connections/<provider>/auth` (302 to the provider's consent screen) and
 * `GET /api/connections/<provider>/callback?code&state` (302 to /twin?connected=<provider>). Raw
 * routes, reached by navigation: a refusal is a short page with its status and error code.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type ApiError, RefusalStatus } from "../../../kernel/contract/errors.ts"
import type { SessionLookup } from "../../accounts/contract/session-lookup.ts"
import { rawCaller } from "../../accounts/contract/raw-caller.ts"
import { consentPage, one, redirect } from "./consent-pages.ts"
import { PluginOAuth } from "./plugin-consent.ts"

const what = "The connection"

const signInFirst = consentPage(
  401,
  "unauthorized",
  "Sign in to this node first, then connect again from Settings → Connections.",
  what
)

const refusedPage = (error: ApiError) =>
  Effect.succeed(consentPage(error[RefusalStatus], error.error, error.message, what))

const providerParam = Effect.map(HttpRouter.params, (params) => params.provider ?? "")

const startConsent = Effect.gen(function* () {
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return signInFirst
  return redirect(yield* (yield* PluginOAuth).start(caller.value, yield* providerParam))
}).pipe(Effect.catchAll(refusedPage))

const finishConsent = Effect.gen(function* () {
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return signInFirst
  const provider = yield* providerParam
  const query = yield* HttpServerRequest.ParsedSearchParams
  yield* (yield* PluginOAuth).finish(caller.value, provider, {
    code: one(query.code),
    state: one(query.state),
    error: one(query.error)
  })
  return redirect(`/twin?connected=${encodeURIComponent(provider)}`)
}).pipe(Effect.catchAll(refusedPage))

/**
 * The routes over the consent flow, the very layer the plugin syncs' authorised fetch stands on
 * (authorised-fetch.ts), so the node builds one; the twin's tags it reads (the provider registry,
 * the OAuth client in force, ConnectionGrants) come from the node.
 */
export const pluginConsentRoutes = Layer.unwrapEffect(
  Effect.map(Effect.context<PluginOAuth | SessionLookup>(), (context) =>
    HttpApiBuilder.Router.use((router) =>
      Effect.all([
        router.get("/api/connections/:provider/auth", Effect.provide(startConsent, context)),
        router.get("/api/connections/:provider/callback", Effect.provide(finishConsent, context))
      ])
    )
  )
).pipe(Layer.provide(PluginOAuth.Default))

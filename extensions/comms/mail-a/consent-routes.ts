/**
 * The two routes a browser walks to connect mail_a (spec: Connections): `GET
 * /api/connections/mail_a/auth` sends it to the consent screen (302), and the provider sends it back
 * to `GET /api/connections/mail_a/callback?code&state`, which connects the mailbox and returns the
 * person to the twin (302 to /twin?connected=mail_a). They sit beside the contract, as raw routes,
 * because a person arrives at them by navigation: a refusal is a page (../oauth/consent-pages.ts).
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type ApiError, RefusalStatus } from "../../../kernel/contract/errors.ts"
import type { SessionLookup } from "../../accounts/contract/session-lookup.ts"
import { rawCaller } from "../../accounts/contract/raw-caller.ts"
import { consentPage, one, redirect } from "../oauth/consent-pages.ts"
import { MAIL_A_AUTH_PATH, MAIL_A_CALLBACK_PATH, MailAConsent } from "./consent.ts"

export const connectedPath = "/twin?connected=mail_a"

const signInFirst = consentPage(
  401,
  "unauthorized",
  "Sign in to this node first, then connect mail again from your twin."
)

const refusedPage = (error: ApiError) => Effect.succeed(consentPage(error[RefusalStatus], error.error, error.message))

const startConsent = Effect.gen(function* () {
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return signInFirst
  return redirect(yield* (yield* MailAConsent).start(caller.value))
}).pipe(Effect.catchAll(refusedPage))

const finishConsent = Effect.gen(function* () {
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return signInFirst
  const query = yield* HttpServerRequest.ParsedSearchParams
  yield* (yield* MailAConsent).finish(caller.value, {
    code: one(query.code),
    state: one(query.state),
    error: one(query.error)
  })
  return redirect(connectedPath)
}).pipe(Effect.catchAll(refusedPage))

export const mailAConsentLayer = Layer.unwrapEffect(
  Effect.map(Effect.context<MailAConsent | SessionLookup>(), (context) =>
    HttpApiBuilder.Router.use((router) =>
      Effect.all([
        router.get(MAIL_A_AUTH_PATH, Effect.provide(startConsent, context)),
        router.get(MAIL_A_CALLBACK_PATH, Effect.provide(finishConsent, context))
      ])
    )
  )
)

/**
 * The routes with what they stand on: the consent service, granting through the twin's ConnectionGrants (the node
 * provides it).
 */
export const mailAConsentRoutes = mailAConsentLayer.pipe(Layer.provide(MailAConsent.Default))

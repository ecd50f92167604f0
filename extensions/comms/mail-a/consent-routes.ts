/**
 * The two routes a browser walks to connect mail_a (spec: Connections): `GET
 * /api/connections/mail_a/auth` sends it to the consent screen (302), and the provider sends it back
 * to `GET /api/connections/mail_a/callback?code&state`, which connects the mailbox and returns the
 * person to the twin (302 to /twin?connected=mail_a). They sit beside the contract, as raw routes,
 * because a person arrives at them by navigation, not from script: a refusal is a short page
 * saying what happened and what to do next, with the status and the error code of the refusal.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type ApiError, RefusalStatus } from "../../../kernel/contract/errors.ts"
import type { SessionLookup } from "../../accounts/contract/session-lookup.ts"
import { rawCaller } from "../../accounts/contract/raw-caller.ts"
import { MAIL_A_AUTH_PATH, MAIL_A_CALLBACK_PATH, MailAConsent } from "./consent.ts"

export const connectedPath = "/twin?connected=mail_a"

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

/** A refusal a person reads: the message (it says what to do next), the code, and a way back. */
export const consentPage = (status: number, error: string, message: string, what = "Mail") =>
  HttpServerResponse.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(what)} not connected</title></head>
<body><main>
<h1>${escapeHtml(what)} was not connected</h1>
<p>${escapeHtml(message)}</p>
<p><small>${status} <code>${escapeHtml(error)}</code></small></p>
<p><a href="/twin">Back to your twin</a></p>
</main></body></html>
`).pipe(
    HttpServerResponse.setStatus(status),
    HttpServerResponse.setHeaders({ "cache-control": "no-store", "referrer-policy": "no-referrer" })
  )

const signInFirst = consentPage(
  401,
  "unauthorized",
  "Sign in to this node first, then connect mail again from your twin."
)

const refusedPage = (error: ApiError) => Effect.succeed(consentPage(error[RefusalStatus], error.error, error.message))

/** Every answer of these routes is about one person's grant: no cache, no referrer carrying the code onward. */
export const redirect = (location: string) =>
  HttpServerResponse.redirect(location, {
    status: 302,
    headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" }
  })

const startConsent = Effect.gen(function* () {
  const caller = yield* rawCaller
  if (Option.isNone(caller)) return signInFirst
  return redirect(yield* (yield* MailAConsent).start(caller.value))
}).pipe(Effect.catchAll(refusedPage))

export const one = (value: string | ReadonlyArray<string> | undefined) =>
  typeof value === "string" ? value : undefined

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

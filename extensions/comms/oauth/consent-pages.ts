/**
 * What the consent routes answer a browser (mail_a's, ../mail-a/consent-routes.ts, and a plugin
 * provider's, plugin-consent-routes.ts): a person arrives at them by navigation, not from script,
 * so a refusal is a short page saying what happened and what to do next, with the status and the
 * error code of the refusal, and a success is a redirect.
 */
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

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

/** Every answer of these routes is about one person's grant: no cache, no referrer carrying the code onward. */
export const redirect = (location: string) =>
  HttpServerResponse.redirect(location, {
    status: 302,
    headers: { "cache-control": "no-store", "referrer-policy": "no-referrer" }
  })

/** A query parameter given once; given twice (or not at all) it counts as absent. */
export const one = (value: string | ReadonlyArray<string> | undefined) =>
  typeof value === "string" ? value : undefined

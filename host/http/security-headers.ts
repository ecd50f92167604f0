/**
 * The security headers the spec lists, on every answer. The UI's HTML additionally gets a
 * strict content security policy (set where the HTML is served); JSON routes get none.
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"

export const securityHeaders = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "SAMEORIGIN",
  "referrer-policy": "strict-origin-when-cross-origin",
  "cross-origin-resource-policy": "same-site"
} as const

/** Lit's styles are constructable stylesheets, which style-src does not govern, so no 'unsafe-inline'. */
export const uiContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'"
].join("; ")

/**
 * A server middleware runs after the response is written, so the headers go on through a
 * pre-response handler, which also covers error answers.
 */
export const withSecurityHeaders = HttpMiddleware.make((app) =>
  Effect.zipRight(
    HttpApp.appendPreResponseHandler((_request, response) =>
      Effect.succeed(HttpServerResponse.setHeaders(response, securityHeaders))
    ),
    app
  )
)

/**
 * The security headers the spec lists, on every answer. The UI's HTML additionally gets a
 * strict content security policy (set where the HTML is served); JSON routes get none.
 */
import type { IncomingMessage, ServerResponse } from "node:http"

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
 * Set on the raw response as each request arrives, before the platform sees it: every answer
 * then carries them (errors and 429s included) at no per-request cost inside Effect.
 */
export const sendSecurityHeaders = (_request: IncomingMessage, response: ServerResponse): void => {
  for (const [name, value] of securityHeaderEntries) response.setHeader(name, value)
}

/** The pairs listed once, not per request. */
const securityHeaderEntries = Object.entries(securityHeaders)

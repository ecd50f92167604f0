/**
 * Whether a request comes from a page of another site, which must not act with the visitor's
 * cookie (cross-site request forgery; for the live channel, cross-site WebSocket hijacking).
 * The node's own origin is PUBLIC_URL when set; unset, the scheme, host and port it is served at
 * (the node speaks plain HTTP itself: with TLS in front, PUBLIC_URL names the https origin).
 * Scheme, host and port all count: an http page is not the https node. COOKIE_DOMAIN's hosts
 * share the cookie, so their pages (same scheme) count as the node's own. A request with neither
 * Origin nor Sec-Fetch-Site is not a browser's (a script, curl, another server): nobody's
 * cookie rides on it, so it passes.
 */
import * as Option from "effect/Option"

export interface OriginPolicy {
  /** PUBLIC_URL. */
  readonly publicUrl: Option.Option<string>
  /** COOKIE_DOMAIN. */
  readonly cookieDomain: Option.Option<string>
}

/** Request headers, lowercase names: the platform's and node:http's both fit. */
export type RequestHeaders = { readonly [name: string]: string | ReadonlyArray<string> | undefined }

const single = (value: string | ReadonlyArray<string> | undefined) => (typeof value === "string" ? value : undefined)

const parse = (url: string): URL | null => (URL.canParse(url) ? new URL(url) : null)

const ownOrigin = (host: string | undefined, policy: OriginPolicy): URL | null =>
  Option.match(policy.publicUrl, {
    onSome: parse,
    onNone: () => (host === undefined || host === "" ? null : parse(`http://${host}`))
  })

export const fromAnotherSite = (headers: RequestHeaders, policy: OriginPolicy): boolean => {
  if (single(headers["sec-fetch-site"])?.toLowerCase() === "cross-site") return true
  const header = single(headers.origin)
  if (header === undefined) return false
  const origin = parse(header)
  const own = ownOrigin(single(headers.host), policy)
  if (origin === null || own === null) return true
  if (origin.origin === own.origin) return false
  return Option.match(policy.cookieDomain, {
    onNone: () => true,
    onSome: (value) => {
      const domain = value.replace(/^\./, "").toLowerCase()
      const sibling = origin.hostname === domain || origin.hostname.endsWith(`.${domain}`)
      return !(sibling && origin.protocol === own.protocol)
    }
  })
}

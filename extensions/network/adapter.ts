/**
 * The `network` capability adapter the host hands plugins (and the built-in web and http skills):
 * the outbound GET and any-method request under the node's one policy (WEB_ALLOW_PRIVATE), and
 * the configured search engine. The search engine is the owner's own choice of address, so it may
 * sit on a private network even when fetching from one is refused.
 */
import * as Option from "effect/Option"
import { refusedUnlessResolved } from "../../kernel/extensions/capability-refused.ts"
import type { NetworkAdapter } from "../../kernel/extensions/network.ts"
import type { WebSettingsShape } from "./contract/web-settings.ts"
import { hostVersion } from "../../kernel/version.ts"
import { makeOutbound, makeOutboundGet } from "../../kernel/http/outbound.ts"
import { searxngSearch } from "./searxng.ts"

/** Each SEARCH_PROVIDER value and how it searches from a base URL. */
const searchProviders = { searxng: searxngSearch } satisfies Record<WebSettingsShape["searchProvider"], unknown>

export const networkAdapterFactory = (settings: WebSettingsShape) => {
  const userAgent = `svc-node/${hostVersion}`
  const get = makeOutboundGet({ allowPrivate: settings.webAllowPrivate, userAgent })
  const request = makeOutbound({ allowPrivate: settings.webAllowPrivate, userAgent })
  const search = Option.isSome(settings.searchUrl)
    ? searchProviders[settings.searchProvider](
        settings.searchUrl.value,
        makeOutboundGet({ allowPrivate: true, userAgent })
      )
    : null
  // The policy's requests are Node's (kernel/http/outbound.ts): each is stopped through the signal interruption aborts.
  const adapter: NetworkAdapter = {
    get: (outbound) => refusedUnlessResolved((signal) => get({ ...outbound, signal })),
    request: (outbound) => refusedUnlessResolved((signal) => request({ ...outbound, signal })),
    search:
      search === null
        ? null
        : (query, options) => refusedUnlessResolved((signal) => search(query, { ...options, signal }))
  }
  return () => adapter
}

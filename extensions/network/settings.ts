/**
 * The network capability's settings: the search engine behind web.search and whether outbound requests may
 * reach private addresses, read once from the environment (docs/operations.md lists each with its
 * default). The host's `network` adapter is built from them.
 */
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { flag, optionalString, settingsLayer } from "../../kernel/settings.ts"
import { WebSettings, type WebSettingsShape } from "./contract/web-settings.ts"

export const webSettingsConfig: Config.Config<WebSettingsShape> = Config.all({
  /** The engine behind web.search; SearXNG is the one provider so far. */
  searchProvider: Config.literal("searxng")("SEARCH_PROVIDER").pipe(Config.withDefault("searxng" as const)),
  /** Base URL of the search engine (e.g. a SearXNG at http://127.0.0.1:8888); unset: web.search says so. */
  searchUrl: optionalString("SEARCH_URL").pipe(
    Config.mapOrFail((url) =>
      Option.isNone(url) || URL.canParse(url.value)
        ? Either.right(url)
        : Either.left(ConfigError.InvalidData(["SEARCH_URL"], "SEARCH_URL must be a URL such as http://127.0.0.1:8888"))
    )
  ),
  /** Let web.fetch reach loopback, private and link-local addresses (refused by default). */
  webAllowPrivate: flag("WEB_ALLOW_PRIVATE")
})

export const webSettingsLayer = (overrides?: Partial<WebSettingsShape>) =>
  settingsLayer(WebSettings, webSettingsConfig, overrides)

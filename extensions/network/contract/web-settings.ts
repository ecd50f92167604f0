/**
 * The network capability's settings as other features read them (the plugin providers' consent
 * flow holds its token endpoint to WEB_ALLOW_PRIVATE as web.fetch is): a plain record behind a tag.
 * The Config that reads them from the environment stays with the feature (../settings.ts).
 */
import * as Context from "effect/Context"
import type * as Option from "effect/Option"

export interface WebSettingsShape {
  /** The engine behind web.search; SearXNG is the one provider so far. */
  readonly searchProvider: "searxng"
  /** Base URL of the search engine; None: web.search says so. */
  readonly searchUrl: Option.Option<string>
  /** web.fetch (and a plugin's token endpoint and auth.fetch) may reach loopback, private and link-local addresses. */
  readonly webAllowPrivate: boolean
}

export class WebSettings extends Context.Tag("web/WebSettings")<WebSettings, WebSettingsShape>() {}

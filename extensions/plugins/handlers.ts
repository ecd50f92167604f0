/** The plugins routes: the listing for anyone signed in, the rest for the owner only. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { PluginsApi } from "./contract/api.ts"
import { requireOwner } from "../accounts/contract/owner.ts"

export const PluginsHandlers = HttpApiBuilder.group(apiOf(PluginsApi), "plugins", (handlers) =>
  Effect.map(ExtensionHost, (extensions) =>
    handlers
      .handle("listPlugins", () => extensions.installed)
      .handle("availablePlugins", () => Effect.zipRight(requireOwner, extensions.available))
      .handle("installPlugin", ({ payload }) => Effect.zipRight(requireOwner, extensions.install(payload)))
      .handle("uninstallPlugin", ({ path }) => Effect.zipRight(requireOwner, extensions.uninstall(path.id)))
  )
)

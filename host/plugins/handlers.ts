/** GET /api/plugins: what is installed and what each contributes, for anyone signed in. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { NodeApi } from "../api.ts"

export const PluginsHandlers = HttpApiBuilder.group(NodeApi, "plugins", (handlers) =>
  Effect.map(ExtensionHost, (extensions) => handlers.handle("listPlugins", () => extensions.installed))
)

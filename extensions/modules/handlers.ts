/**
 * POST /api/modules/:id/:extensionId/call: a module's page calling the bridge. The caller is the
 * session's being, acting through the module's plugin (its storage scope, its skills, its name on
 * what it raises), within the module's `uses` ∩ its plugin's grant.
 */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { CurrentSession } from "../accounts/contract/session.ts"
import { Bridge } from "./bridge/contract/bridge.ts"
import { pluginSource } from "../desktop/contract/signal-sources.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { ModulesApi } from "./contract/api.ts"
import { RateLimiter } from "../../kernel/http/rate-limit.ts"
import { findModule } from "./installed-modules.ts"
import { FileAccess } from "../files/contract/file-access.ts"
import { saveEditedFile } from "./edited-file.ts"

export const ModulesHandlers = HttpApiBuilder.group(apiOf(ModulesApi), "modules", (handlers) =>
  Effect.gen(function* () {
    const host = yield* ExtensionHost
    const bridge = yield* Bridge
    const limiter = yield* RateLimiter
    const files = yield* FileAccess
    return handlers
      .handle("saveEditedFile", ({ path, payload }) =>
        Effect.flatMap(CurrentSession, (session) =>
          saveEditedFile(host, files, session, path.id, path.extensionId, payload)
        )
      )
      .handle("callModule", ({ path, payload, request }) =>
        Effect.gen(function* () {
          const session = yield* CurrentSession
          const { plugin, granted } = yield* findModule(host, path.id, path.extensionId)
          // A module's own skills may reach a model when it holds `llm`: those calls count as model calls too.
          if (payload.method === "skills.invoke" && granted.includes("llm"))
            yield* limiter.charge(request, "llm", { global: false })
          const caller = {
            beingId: session.beingId,
            storageScope: plugin.id,
            source: pluginSource(plugin),
            skillNamespace: plugin.namespace
          }
          return { result: yield* bridge.call(caller, granted, payload.method, payload.args) }
        })
      )
  })
)

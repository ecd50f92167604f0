/** GET /api/health: every figure is read when asked, nothing is assumed. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Presence } from "../../actors/being/contract/presence.ts"
import { ModelRoutes } from "../models/contract/routes.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { HealthApi } from "./contract/api.ts"
import { Mailer } from "../mail/contract/mailer.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { LiveConnections } from "../../kernel/live/live-connections.ts"
import { hostVersion } from "../../kernel/version.ts"
import { DatabaseProbe } from "./database-probe.ts"
import { SandboxHealth } from "../sandbox/contract/status.ts"
import { TwinMemories } from "../twin/contract/memories.ts"

export const HealthHandlers = HttpApiBuilder.group(apiOf(HealthApi), "health", (handlers) =>
  Effect.gen(function* () {
    const databaseProbe = yield* DatabaseProbe
    const models = yield* ModelRoutes
    const mailer = yield* Mailer
    const extensions = yield* ExtensionHost
    const live = yield* LiveConnections
    const presence = yield* Presence
    const memories = yield* TwinMemories
    const startedAtMs = yield* Clock.currentTimeMillis
    const sandbox = yield* SandboxHealth

    return handlers.handle("health", () =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const database = yield* databaseProbe.probe
        const plugins = yield* extensions.installed
        const beingsOnline = yield* presence.onlineBeings.pipe(Effect.catchAllDefect(() => Effect.succeed(null)))
        const memory = process.memoryUsage()
        return {
          ok: database.ok,
          version: hostVersion,
          startedAt: new Date(startedAtMs).toISOString(),
          uptimeSeconds: Math.round((now - startedAtMs) / 1000),
          database,
          models: { keyConfigured: models.keyConfigured, demo: models.demoBound() },
          mail: { configured: mailer.configured },
          sandbox: yield* sandbox.status,
          plugins: {
            installed: plugins.length,
            failed: plugins.filter((plugin) => plugin.status === "error").length
          },
          live: { connections: live.counts().connections, beingsOnline },
          budget: { todayUsd: yield* models.spentToday, dayCeilingUsd: models.dayCeilingUsd },
          embeddings: yield* memories.embeddings(null),
          process: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, pid: process.pid }
        }
      })
    )
  })
).pipe(Layer.provide(DatabaseProbe.Default))

/** GET /api/health: every figure is read when asked, nothing is assumed. */
import * as HttpApiBuilder from "@effect/platform/HttpApiBuilder"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { BeingSocketsRepository } from "../../actors/being/being-sockets-repository.ts"
import { ModelSettings } from "../models/settings.ts"
import { apiOf } from "../../kernel/contract/node-api.ts"
import { HealthApi } from "./contract/api.ts"
import { Mailer } from "../mail/mailer.ts"
import { ExtensionHost } from "../../kernel/extensions/host.ts"
import { LlmLedger } from "../models/ledger.ts"
import { LiveConnections } from "../../host/live/connections.ts"
import { hostVersion } from "../../kernel/version.ts"
import { DatabaseProbe } from "./database-probe.ts"
import { Sandbox } from "../sandbox/sandbox.ts"
import { TwinMemories } from "../twin/contract/memories.ts"

export const HealthHandlers = HttpApiBuilder.group(apiOf(HealthApi), "health", (handlers) =>
  Effect.gen(function* () {
    const databaseProbe = yield* DatabaseProbe
    const modelSettings = yield* ModelSettings
    const mailer = yield* Mailer
    const extensions = yield* ExtensionHost
    const live = yield* LiveConnections
    const ledger = yield* LlmLedger
    const presence = yield* BeingSocketsRepository
    const memories = yield* TwinMemories
    const startedAtMs = yield* Clock.currentTimeMillis
    const sandbox = yield* Sandbox

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
          models: { keyConfigured: Option.isSome(modelSettings.llmApiKey) },
          mail: { configured: mailer.configured },
          sandbox: yield* sandbox.status,
          plugins: {
            installed: plugins.length,
            failed: plugins.filter((plugin) => plugin.status === "error").length
          },
          live: { connections: live.counts().connections, beingsOnline },
          budget: { todayUsd: yield* ledger.spentToday, dayCeilingUsd: modelSettings.spendMaxDayUsd },
          embeddings: yield* memories.embeddings(null),
          process: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, pid: process.pid }
        }
      })
    )
  })
).pipe(Layer.provide(Layer.mergeAll(DatabaseProbe.Default, Sandbox.Default)))

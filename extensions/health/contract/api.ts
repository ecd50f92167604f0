/** GET /api/health: public, honest about every part of the node that exists. */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import * as Schema from "effect/Schema"
import { SandboxStatus } from "../../sandbox/contract/status.ts"
import { EmbeddingsStatus } from "../../twin/contract/records.ts"

export const Health = Schema.Struct({
  ok: Schema.Boolean,
  version: Schema.String,
  startedAt: Schema.String,
  uptimeSeconds: Schema.Number,
  database: Schema.Struct({ ok: Schema.Boolean, latencyMs: Schema.Number }),
  /** `demo`: some tier is bound to the built-in demo models, whose writing is placeholder text (the web app says so). */
  models: Schema.Struct({ keyConfigured: Schema.Boolean, demo: Schema.Boolean }),
  mail: Schema.Struct({ configured: Schema.Boolean }),
  sandbox: SandboxStatus,
  plugins: Schema.Struct({ installed: Schema.Int, failed: Schema.Int }),
  /**
   * Open /api/ws sockets in this process, and beings online (at least one open socket) as the
   * being actors record it; null when the database cannot be read.
   */
  live: Schema.Struct({ connections: Schema.Int, beingsOnline: Schema.NullOr(Schema.Int) }),
  /** The node's model spend today (UTC) against the day's ceiling. */
  budget: Schema.Struct({ todayUsd: Schema.Number, dayCeilingUsd: Schema.Number }),
  /** The twin's memories across the node: how many carry a vector of the bound embed model (search by meaning). */
  embeddings: EmbeddingsStatus,
  process: Schema.Struct({ rssBytes: Schema.Number, heapUsedBytes: Schema.Number, pid: Schema.Int })
})
export type Health = typeof Health.Type

export class HealthApi extends HttpApiGroup.make("health")
  .annotate(OpenApi.Description, "Whether the node is up and how it is doing, for monitors and the shell. Public.")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .annotate(OpenApi.Summary, "The node's health")
      .annotate(
        OpenApi.Description,
        "Version, uptime, database latency, whether models, mail and the sandbox are available, plugins, live " +
          "connections, today's model spend and embedding coverage. Public."
      )
      .addSuccess(Health)
  )
  .prefix("/api") {}

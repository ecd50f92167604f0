/**
 * The project feature's outside edges as test layers, for tests that build it without a host:
 * in-memory SQLite with the beings and project tables, the real event bus, a Models that has no
 * model to call (every call is refused as a node without a key would refuse it), no skills, and
 * the ports answered here (one generator, no saved agents, alerts kept in a list; agents' souls
 * from the souls engine, which is pure).
 */
import { SignalReads } from "../../../actors/being/contract/signal-reads.ts"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { databaseLayer } from "../../../kernel/database.ts"
import { Skills } from "../../../kernel/extensions/skills.ts"
import { GeneratorNotFound } from "../../../extensions/generators/contract/errors.ts"
import { Settings } from "../../../kernel/settings.ts"
import { accountMigrations } from "../../../extensions/accounts/migrations.ts"
import type { BusDelivery as Delivery } from "../../../kernel/events.ts"
import { EventBusLive } from "../../../host/events.ts"
import { ModelsUnavailable } from "../../../extensions/models/contract/errors.ts"
import { Models } from "../../../extensions/models/contract/models.ts"
import { Generator } from "../../../extensions/generators/contract/generator.ts"
import { projectMigrations } from "../../../actors/project/migrations.ts"
import { ProjectAlerts, type ProjectAlert } from "../../../actors/project/alerts.ts"
import { CrewSeats, RunnableGenerators, SavedAgents } from "../../../actors/project/ports.ts"
import { AgentSoulsLive } from "../../../actors/project/port-bindings.ts"
import { SoulService } from "../../../extensions/souls/contract/soul-service.ts"
import { agentPrompt } from "../../../extensions/souls/soul-service.ts"
import { ProjectSettings } from "../../../actors/project/settings.ts"

export const owner = { beingId: "being-owner", isOwner: true }

/** Two steps, the second reading the first's output. */
export const teaNotes = Schema.decodeUnknownSync(Generator)({
  id: "generator-tea",
  ownerId: "system",
  name: "Tea notes",
  slug: "tea-notes",
  description: "Notes on a tea, then a page from them.",
  inputsSchema: { type: "object", properties: { tea: { type: "string" } } },
  steps: [
    {
      id: "notes",
      title: "Notes on {{inputs.tea}}",
      role: "researcher",
      skills: [],
      instruction: "Take notes on {{inputs.tea}}."
    },
    {
      id: "page",
      title: "A page",
      role: "writer",
      skills: [],
      instruction: "Write a page from {{steps.notes.output}}.",
      dependsOn: ["notes"]
    }
  ],
  outputKinds: ["markdown"],
  runs: 0,
  createdAt: "2026-01-01T00:00:00.000Z"
})

const noModel = (tier: "cheap" | "standard" | "strong") =>
  new ModelsUnavailable({ tier, message: `No model is bound to the ${tier} tier.` })

export const projectTestLayers = () => {
  const alerts: Array<ProjectAlert> = []
  const ports = Layer.mergeAll(
    Layer.succeed(RunnableGenerators, {
      find: (_caller, idOrSlug) =>
        idOrSlug === teaNotes.id || idOrSlug === teaNotes.slug
          ? Effect.succeed(teaNotes)
          : Effect.fail(new GeneratorNotFound({ message: "There is no generator with that id." })),
      check: () => Effect.void,
      checkInputs: (_generator, inputs) => ({ ok: true, inputs: { ...(inputs as Record<string, unknown>) } })
    }),
    Layer.succeed(SavedAgents, {
      ownedBy: () => Effect.succeed([]),
      registeredSkills: Effect.succeed(new Set<string>())
    }),
    // The souls engine's agent prompt, pure: no soul is stored.
    AgentSoulsLive.pipe(Layer.provide(Layer.mock(SoulService, { agentPrompt }))),
    // No project here has a crew.
    Layer.succeed(CrewSeats, { forProject: () => Effect.succeed(null) }),
    Layer.succeed(ProjectAlerts, { raise: (alert) => Effect.sync(() => void alerts.push(alert)) })
  )
  const models = Layer.mock(Models, {
    chat: (tier) => Effect.fail(noModel(tier === "cheap" || tier === "standard" ? tier : "strong")),
    chatJson: () => Effect.fail(noModel("strong"))
  })
  const skills = Layer.mock(Skills, { list: Effect.succeed([]), spendsModels: () => false, uses: () => undefined })
  // No skill here asks for approval, so no step reads a decision.
  const signals = Layer.mock(SignalReads, {})
  const settings = Layer.mergeAll(
    // A data folder of the layer's own, removed when the layer is released.
    Layer.unwrapScoped(
      Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(join(tmpdir(), "project-feature-"))),
        (dataDir) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
      ).pipe(Effect.map((dataDir) => Settings.layerWith({ dataDir })))
    ),
    ProjectSettings.layer({ studioTaskConcurrency: 1 })
  )
  const database = databaseLayer({ ...accountMigrations, ...projectMigrations }, { filename: ":memory:" })
  const infrastructure = Layer.mergeAll(EventBusLive, database).pipe(Layer.provideMerge(settings))
  return { alerts, layer: Layer.mergeAll(ports, models, skills, signals).pipe(Layer.provideMerge(infrastructure)) }
}

/** The owner's being row, which every project row refers to. */
export const insertOwner = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`INSERT INTO beings (id, handle, display_name, is_owner, created_at)
    VALUES (${owner.beingId}, 'owner', 'Owner', 1, '2026-01-01T00:00:00.000Z')`
)

/** Takes deliveries off the bus until one matches; the test's own timeout bounds the wait. */
export const nextMatching = <A>(
  deliveries: Queue.Dequeue<Delivery>,
  match: (delivery: Delivery) => A | undefined
): Effect.Effect<A> =>
  Effect.flatMap(Queue.take(deliveries), (delivery) => {
    const found = match(delivery)
    return found === undefined ? nextMatching(deliveries, match) : Effect.succeed(found)
  })
